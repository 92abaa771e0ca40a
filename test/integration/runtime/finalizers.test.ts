import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  addFinalizer,
  createResourceClient,
  hasFinalizer,
  isConflict,
  isNotFound,
  removeFinalizer,
  toKubeError,
} from '../../../operator/runtime/index.ts';
import type { KubeClient, ResourceClient } from '../../../operator/runtime/index.ts';
import { Toy, createNamespace, installToyCrd, stackTransport } from './toy-cluster.ts';
import type { ToyObject } from './toy-cluster.ts';

// The integration project's testTimeout is not applied per project by jest 30; set it here.
jest.setTimeout(180_000);

const F = 'runtime-test.metal3-ts.io/cleanup';

describe.each(['json', 'merge'] as const)('finalizers (%s patch) against a real API server', (strategy) => {
  let transport: KubeClient;
  let namespace: string;
  let toys: ResourceClient<ToyObject>;

  beforeAll(async () => {
    ({ transport } = stackTransport());
    await installToyCrd(transport);
    namespace = await createNamespace(transport, `rt-finalizers-${strategy}`);
    toys = createResourceClient<ToyObject>(transport, Toy);
  });

  const create = (name: string, finalizers?: string[]) => toys.create({ metadata: { name, namespace, finalizers }, spec: { value: 1 } });
  const read = (name: string) => toys.get({ namespace, name });

  it('adds a finalizer to an object without any, then appends to an existing list', async () => {
    const added = await addFinalizer(toys, await create('fresh'), F, { strategy });
    expect(added.metadata.finalizers).toEqual([F]);
    expect((await read('fresh')).metadata.finalizers).toEqual([F]);

    const appended = await addFinalizer(toys, await create('existing', ['other.io/keep']), F, { strategy });
    expect(appended.metadata.finalizers).toEqual(['other.io/keep', F]);
    expect(hasFinalizer(await read('existing'), F)).toBe(true);
    // Present already: nothing to write, the same object comes back.
    expect(await addFinalizer(toys, appended, F, { strategy })).toBe(appended);
  });

  it('removes only its own finalizer', async () => {
    const updated = await removeFinalizer(toys, await create('shared', ['a.io/x', F, 'b.io/y']), F, { strategy });
    expect(updated.metadata.finalizers).toEqual(['a.io/x', 'b.io/y']);
    expect((await read('shared')).metadata.finalizers).toEqual(['a.io/x', 'b.io/y']);
  });

  it('a JSON patch whose test fails is answered 422 Invalid with no causes (why the helpers report it as a Conflict)', async () => {
    await create('tested', ['a.io/x']);
    const failure = await toys.patch({ namespace, name: 'tested' }, [
      { op: 'test', path: '/metadata/finalizers', value: ['b.io/y'] },
      { op: 'add', path: '/metadata/finalizers/-', value: F },
    ], { type: 'json' }).catch((e: unknown) => e);
    expect(toKubeError(failure)).toMatchObject({ code: 422, reason: 'Invalid', causes: [] });
    expect(isConflict(failure)).toBe(false);
  });

  it('refuses to remove from a list that changed since the object was read', async () => {
    const stale = await create('reordered', ['a.io/x']);
    await toys.patch({ namespace, name: 'reordered' }, { metadata: { finalizers: ['b.io/y', 'a.io/x'] } }, { type: 'merge' });
    const failure = await removeFinalizer(toys, stale, 'a.io/x', { strategy }).catch((e: unknown) => e);
    expect(isConflict(failure)).toBe(true);
    expect((await read('reordered')).metadata.finalizers).toEqual(['b.io/y', 'a.io/x']);
  });

  it('refuses to add over a finalizer list another writer created since the object was read', async () => {
    const stale = await create('raced');
    await toys.patch({ namespace, name: 'raced' }, { metadata: { finalizers: ['other.io/first'] } }, { type: 'merge' });
    const failure = await addFinalizer(toys, stale, F, { strategy }).catch((e: unknown) => e);
    expect(isConflict(failure)).toBe(true);
    expect((await read('raced')).metadata.finalizers).toEqual(['other.io/first']);
  });

  it('holds a deleted object until the last finalizer is removed, and then it is gone', async () => {
    const original = await create('doomed', [F]);
    await toys.delete({ namespace, name: 'doomed' });
    const deleting = await read('doomed');
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    expect(deleting.metadata.finalizers).toEqual([F]);

    await removeFinalizer(toys, deleting, F, { strategy });
    expect(isNotFound(await read('doomed').catch((e: unknown) => e))).toBe(true);
    // Removing again from a stale copy: the object is gone, so there is nothing left to do.
    await expect(removeFinalizer(toys, original, F, { strategy })).resolves.toBe(original);
  });
});
