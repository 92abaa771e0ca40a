import { describe, it, expect } from '@jest/globals';
import { addFinalizer, hasFinalizer, removeFinalizer } from './finalizers.ts';
import { isConflict, isInvalid } from './kube-errors.ts';
import type { KubeObject, ResourceType } from './kube-object.ts';
import { createResourceClient } from './resource-client.ts';
import { FakeApiServer } from './testing/fake-api-server.ts';

const Toy: ResourceType = { group: 'example.com', version: 'v1', kind: 'Toy', plural: 'toys', namespaced: true };
const F = 'example.com/cleanup';

async function setup(finalizers?: string[]) {
  const api = new FakeApiServer();
  const client = createResourceClient(api, Toy);
  const obj = await client.create({ metadata: { name: 't', namespace: 'ns', finalizers } } as KubeObject);
  return { api, client, obj };
}

describe.each(['json', 'merge'] as const)('finalizers (%s patch)', (strategy) => {
  it('adds a finalizer to an object without any', async () => {
    const { client, obj } = await setup();
    const updated = await addFinalizer(client, obj, F, { strategy });
    expect(updated.metadata.finalizers).toEqual([F]);
    expect(hasFinalizer(updated, F)).toBe(true);
  });

  it('appends to existing finalizers and is a no-op when present', async () => {
    const { api, client, obj } = await setup(['other']);
    const updated = await addFinalizer(client, obj, F, { strategy });
    expect(updated.metadata.finalizers).toEqual(['other', F]);
    const writes = api.requests.length;
    expect(await addFinalizer(client, updated, F, { strategy })).toBe(updated);
    expect(api.requests.length).toBe(writes);
  });

  it('removes only its own finalizer', async () => {
    const { client, obj } = await setup(['a', F, 'b']);
    const updated = await removeFinalizer(client, obj, F, { strategy });
    expect(updated.metadata.finalizers).toEqual(['a', 'b']);
  });

  it('refuses to write over a list that changed since the object was read', async () => {
    const { client, obj } = await setup(['a']);
    await client.patch({ namespace: 'ns', name: 't' }, { metadata: { finalizers: ['b', 'a'] } }, { type: 'merge' });
    const failure = await removeFinalizer(client, { ...obj, metadata: { ...obj.metadata, finalizers: ['a'] } }, 'a', { strategy }).catch((e: unknown) => e);
    expect(isConflict(failure) || isInvalid(failure)).toBe(true);
    expect((await client.get({ namespace: 'ns', name: 't' })).metadata.finalizers).toEqual(['b', 'a']);
  });

  it('lets a deleting object go once the last finalizer is removed', async () => {
    const { client, obj } = await setup([F]);
    await client.delete({ namespace: 'ns', name: 't' });
    const deleting = await client.get({ namespace: 'ns', name: 't' });
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    await removeFinalizer(client, deleting, F, { strategy });
    await expect(client.get({ namespace: 'ns', name: 't' })).rejects.toMatchObject({ code: 404 });
    // Removing again from the stale copy: already gone, nothing to do.
    await expect(removeFinalizer(client, obj, F, { strategy })).resolves.toBe(obj);
  });
});
