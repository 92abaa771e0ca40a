import { describe, it, expect } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import type { KubeRequest, KubeTransport } from './kube-client.ts';
import { isConflict } from './kube-errors.ts';
import type { KubeObject, ResourceType } from './kube-object.ts';
import { createResourceClient } from './resource-client.ts';
import { patchStatus, replaceStatus } from './status.ts';

// What the API server does with these writes (status-only, conflicts, generation) is
// tested against a real one in test/integration/runtime/status.test.ts.

const Toy: ResourceType = { group: 'example.com', version: 'v1', kind: 'Toy', plural: 'toys', namespaced: true };
const toy: KubeObject = {
  apiVersion: 'example.com/v1',
  kind: 'Toy',
  metadata: { name: 't', namespace: 'ns', resourceVersion: '42', generation: 3 },
  spec: { a: 1 },
};

/** Records each request and answers it with the next canned reply (an Error is thrown). */
function recordingTransport(...replies: unknown[]) {
  const requests: KubeRequest[] = [];
  const transport: KubeTransport = {
    async request<T>(request: KubeRequest): Promise<T> {
      requests.push(request);
      const reply = replies.shift();
      if (reply instanceof Error) throw reply;
      return reply as T;
    },
    watch: () => Promise.reject(new Error('not used')),
  };
  return { transport, requests };
}

const conflict = () =>
  new ApiException(409, 'PATCH failed', '{"kind":"Status","code":409,"reason":"Conflict","message":"the object has been modified"}', {});

describe('patchStatus', () => {
  it('merge-patches only the status onto the /status subresource, with the field manager', async () => {
    const answer = { ...toy, status: { phase: 'Ready' } };
    const { transport, requests } = recordingTransport(answer);
    const client = createResourceClient(transport, Toy, { fieldManager: 'toy-controller' });
    expect(await patchStatus(client, toy, { phase: 'Ready' })).toEqual(answer);
    expect(requests).toEqual([
      {
        method: 'PATCH',
        path: '/apis/example.com/v1/namespaces/ns/toys/t/status',
        contentType: 'application/merge-patch+json',
        body: { status: { phase: 'Ready' } },
        query: { fieldManager: 'toy-controller' },
      },
    ]);
  });

  it('carries the resourceVersion it was based on under optimistic locking, and passes the Conflict on', async () => {
    const { transport, requests } = recordingTransport(conflict());
    const client = createResourceClient(transport, Toy);
    const signal = new AbortController().signal;
    const failure = await patchStatus(client, toy, { phase: 'x' }, { optimisticLock: true, fieldManager: 'other', signal }).catch((e: unknown) => e);
    expect(isConflict(failure)).toBe(true);
    expect(requests[0]).toMatchObject({
      body: { status: { phase: 'x' }, metadata: { resourceVersion: '42' } },
      query: { fieldManager: 'other' },
      signal,
    });
  });

  it('refuses optimistic locking without a resourceVersion, before sending anything', () => {
    const { transport, requests } = recordingTransport();
    const client = createResourceClient(transport, Toy);
    const unversioned = { ...toy, metadata: { name: 't', namespace: 'ns' } };
    expect(() => patchStatus(client, unversioned, {}, { optimisticLock: true })).toThrow(/resourceVersion/);
    expect(requests).toEqual([]);
  });
});

describe('replaceStatus', () => {
  it('PUTs the whole object, resourceVersion included, on /status', async () => {
    const { transport, requests } = recordingTransport({ ...toy, status: { phase: 'y' } });
    const client = createResourceClient(transport, Toy);
    const updated = await replaceStatus(client, { ...toy, status: { phase: 'y' } }, { fieldManager: 'toy-controller' });
    expect(updated.status).toEqual({ phase: 'y' });
    expect(requests).toMatchObject([
      {
        method: 'PUT',
        path: '/apis/example.com/v1/namespaces/ns/toys/t/status',
        body: { apiVersion: 'example.com/v1', kind: 'Toy', metadata: { resourceVersion: '42' }, status: { phase: 'y' } },
        query: { fieldManager: 'toy-controller' },
      },
    ]);
    expect(requests[0]?.contentType).toBeUndefined();
  });

  it('is always conditional: refuses an object without a resourceVersion', () => {
    const { transport, requests } = recordingTransport();
    const client = createResourceClient(transport, Toy);
    expect(() => replaceStatus(client, { metadata: { name: 't', namespace: 'ns' }, status: {} })).toThrow(/resourceVersion/);
    expect(requests).toEqual([]);
  });
});
