import { describe, it, expect } from '@jest/globals';
import { isConflict } from './kube-errors.ts';
import type { KubeObject, ResourceType } from './kube-object.ts';
import { createResourceClient } from './resource-client.ts';
import { patchStatus, replaceStatus } from './status.ts';
import { FakeApiServer } from './testing/fake-api-server.ts';

const Toy: ResourceType = { group: 'example.com', version: 'v1', kind: 'Toy', plural: 'toys', namespaced: true };

describe('status helpers', () => {
  it('merge-patches the status subresource with the right content type', async () => {
    const api = new FakeApiServer();
    const client = createResourceClient(api, Toy, { fieldManager: 'toy-controller' });
    const obj = await client.create({ metadata: { name: 't', namespace: 'ns' }, spec: { a: 1 } } as KubeObject);
    const updated = await patchStatus(client, obj, { phase: 'Ready' });
    expect(updated.status).toEqual({ phase: 'Ready' });
    expect(updated.metadata.generation).toBe(1);
    const request = api.requests.at(-1);
    expect(request).toMatchObject({
      method: 'PATCH',
      path: '/apis/example.com/v1/namespaces/ns/toys/t/status',
      contentType: 'application/merge-patch+json',
      body: { status: { phase: 'Ready' } },
      query: { fieldManager: 'toy-controller' },
    });
  });

  it('fails with Conflict under optimistic locking when the object moved on', async () => {
    const api = new FakeApiServer();
    const client = createResourceClient(api, Toy);
    const obj = await client.create({ metadata: { name: 't', namespace: 'ns' } } as KubeObject);
    await client.patch({ namespace: 'ns', name: 't' }, { spec: { a: 2 } }, { type: 'merge' });
    expect(isConflict(await patchStatus(client, obj, { phase: 'x' }, { optimisticLock: true }).catch((e: unknown) => e))).toBe(true);
    await expect(patchStatus(client, obj, { phase: 'x' })).resolves.toMatchObject({ status: { phase: 'x' } });
  });

  it('replaces status with a conditional PUT', async () => {
    const api = new FakeApiServer();
    const client = createResourceClient(api, Toy);
    const obj = await client.create({ metadata: { name: 't', namespace: 'ns' } } as KubeObject);
    const updated = await replaceStatus(client, { ...obj, status: { phase: 'y' } });
    expect(updated.status).toEqual({ phase: 'y' });
    expect(isConflict(await replaceStatus(client, { ...obj, status: { phase: 'z' } }).catch((e: unknown) => e))).toBe(true);
  });
});
