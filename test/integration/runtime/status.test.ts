import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createResourceClient, isConflict, patchStatus, replaceStatus } from '../../../operator/runtime/index.ts';
import type { KubeClient, ResourceClient } from '../../../operator/runtime/index.ts';
import { Toy, createNamespace, installToyCrd, stackTransport } from './toy-cluster.ts';
import type { ToyObject } from './toy-cluster.ts';

// The integration project's testTimeout is not applied per project by jest 30; set it here.
jest.setTimeout(180_000);

interface Condition {
  type: string;
  status: string;
}
type ToyWithConditions = ToyObject & { status?: ToyObject['status'] & { conditions?: Condition[] } };

describe('status helpers against a real API server', () => {
  let transport: KubeClient;
  let namespace: string;
  let toys: ResourceClient<ToyWithConditions>;

  beforeAll(async () => {
    ({ transport } = stackTransport());
    await installToyCrd(transport);
    namespace = await createNamespace(transport, 'rt-status');
    toys = createResourceClient<ToyWithConditions>(transport, Toy, { fieldManager: 'runtime-test' });
  });

  const create = (name: string) => toys.create({ metadata: { name, namespace }, spec: { value: 1 } });

  it('patchStatus writes only the status, through /status: spec and generation stay, the write is attributed', async () => {
    const created = await create('patched');
    const updated = await patchStatus(toys, created, { observedValue: 1, observedGeneration: 1 });
    expect(updated.status).toEqual({ observedValue: 1, observedGeneration: 1 });
    expect(updated.spec).toEqual({ value: 1 });
    expect(updated.metadata.generation).toBe(created.metadata.generation);
    expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    expect(updated.metadata.managedFields).toEqual(
      expect.arrayContaining([expect.objectContaining({ manager: 'runtime-test', subresource: 'status' })]),
    );

    // A status merge patch keeps the status fields it does not mention.
    const again = await patchStatus(toys, updated, { observedValue: 2 });
    expect(again.status).toEqual({ observedValue: 2, observedGeneration: 1 });
  });

  it('patchStatus replaces lists inside the status wholesale', async () => {
    const created = await create('conditions');
    await patchStatus(toys, created, { conditions: [{ type: 'Ready', status: 'False' }, { type: 'Provisioned', status: 'True' }] });
    const updated = await patchStatus(toys, created, { conditions: [{ type: 'Ready', status: 'True' }] });
    expect(updated.status?.conditions).toEqual([{ type: 'Ready', status: 'True' }]);
  });

  it('patchStatus with optimisticLock fails with Conflict once the object moved on, and writes nothing', async () => {
    const stale = await create('locked');
    await toys.patch({ namespace, name: 'locked' }, { spec: { value: 2 } }, { type: 'merge' });

    const failure = await patchStatus(toys, stale, { observedValue: 1 }, { optimisticLock: true }).catch((e: unknown) => e);
    expect(isConflict(failure)).toBe(true);
    expect((await toys.get({ namespace, name: 'locked' })).status).toBeUndefined();

    // Based on a fresh read it goes through; without the lock a stale copy does too.
    const fresh = await toys.get({ namespace, name: 'locked' });
    await expect(patchStatus(toys, fresh, { observedValue: 2 }, { optimisticLock: true })).resolves.toMatchObject({ status: { observedValue: 2 } });
    await expect(patchStatus(toys, stale, { observedValue: 3 })).resolves.toMatchObject({ status: { observedValue: 3 } });
  });

  it('replaceStatus is a conditional PUT on /status that ignores spec changes', async () => {
    const created = await create('replaced');
    const updated = await replaceStatus(toys, { ...created, spec: { value: 99 }, status: { observedValue: 5 } });
    expect(updated.status).toEqual({ observedValue: 5 });
    expect(updated.spec).toEqual({ value: 1 });
    expect(updated.metadata.generation).toBe(created.metadata.generation);

    const failure = await replaceStatus(toys, { ...created, status: { observedValue: 6 } }).catch((e: unknown) => e);
    expect(isConflict(failure)).toBe(true);
    expect((await toys.get({ namespace, name: 'replaced' })).status).toEqual({ observedValue: 5 });
  });

  it('a spec write bumps the generation but leaves the status alone', async () => {
    const created = await create('spec-write');
    const withStatus = await patchStatus(toys, created, { observedValue: 1 });
    const updated = await toys.patch({ namespace, name: 'spec-write' }, { spec: { value: 2 }, status: { observedValue: 42 } }, { type: 'merge' });
    expect(updated.metadata.generation).toBe((withStatus.metadata.generation ?? 0) + 1);
    expect(updated.status).toEqual({ observedValue: 1 });
  });
});
