import { describe, it, expect } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import { addFinalizer, hasFinalizer, removeFinalizer } from './finalizers.ts';
import type { KubeRequest, KubeTransport } from './kube-client.ts';
import { isConflict } from './kube-errors.ts';
import type { KubeObject, ResourceType } from './kube-object.ts';
import { createResourceClient } from './resource-client.ts';

// The round trip through a real API server (test ops, conflicts, deletion once the last
// finalizer goes) is in test/integration/runtime/finalizers.test.ts.

const Toy: ResourceType = { group: 'example.com', version: 'v1', kind: 'Toy', plural: 'toys', namespaced: true };
const F = 'example.com/cleanup';
const PATH = '/apis/example.com/v1/namespaces/ns/toys/t';
const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';

const toy = (finalizers?: string[]): KubeObject => ({
  metadata: { name: 't', namespace: 'ns', resourceVersion: '42', ...(finalizers ? { finalizers } : {}) },
});

/** Records each request and answers it with the next canned reply (an Error is thrown). */
function setup(...replies: unknown[]) {
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
  return { client: createResourceClient(transport, Toy, { fieldManager: 'toy-controller' }), requests };
}

const statusError = (code: number, reason: string) =>
  new ApiException(code, 'PATCH failed', JSON.stringify({ kind: 'Status', code, reason, message: reason }), {});

describe('hasFinalizer', () => {
  it('looks the finalizer up in metadata.finalizers', () => {
    expect(hasFinalizer(toy([F]), F)).toBe(true);
    expect(hasFinalizer(toy(['other']), F)).toBe(false);
    expect(hasFinalizer(toy(), F)).toBe(false);
  });
});

describe('addFinalizer', () => {
  it('json (default): guards on the resourceVersion when there is no list yet, and returns the answer', async () => {
    const answer = toy([F]);
    const { client, requests } = setup(answer);
    expect(await addFinalizer(client, toy(), F)).toBe(answer);
    expect(requests).toEqual([
      {
        method: 'PATCH',
        path: PATH,
        contentType: JSON_PATCH,
        query: { fieldManager: 'toy-controller' },
        body: [
          { op: 'test', path: '/metadata/resourceVersion', value: '42' },
          { op: 'add', path: '/metadata/finalizers', value: [F] },
        ],
      },
    ]);
  });

  it('json: guards on the list it saw and appends to it', async () => {
    const { client, requests } = setup(toy(['a', 'b', F]));
    await addFinalizer(client, toy(['a', 'b']), F, { strategy: 'json', fieldManager: 'other' });
    expect(requests[0]).toMatchObject({
      contentType: JSON_PATCH,
      query: { fieldManager: 'other' },
      body: [
        { op: 'test', path: '/metadata/finalizers', value: ['a', 'b'] },
        { op: 'add', path: '/metadata/finalizers/-', value: F },
      ],
    });
  });

  it('merge: sends the whole new list with the resourceVersion it was based on', async () => {
    const { client, requests } = setup(toy(['a', F]));
    await addFinalizer(client, toy(['a']), F, { strategy: 'merge' });
    expect(requests[0]).toMatchObject({
      method: 'PATCH',
      path: PATH,
      contentType: MERGE_PATCH,
      body: { metadata: { finalizers: ['a', F], resourceVersion: '42' } },
    });
  });

  it.each(['json', 'merge'] as const)('%s: writes nothing when the finalizer is already there', async (strategy) => {
    const { client, requests } = setup();
    const obj = toy(['a', F]);
    expect(await addFinalizer(client, obj, F, { strategy })).toBe(obj);
    expect(requests).toEqual([]);
  });

  it('json: a failed test (422 with no causes) is a Conflict, to be retried quietly; a validation failure passes on as it is', async () => {
    const stale = setup(statusError(422, 'Invalid'));
    const failure = await addFinalizer(stale.client, toy(['a']), F).catch((e: unknown) => e);
    expect(isConflict(failure)).toBe(true);
    expect((failure as Error).message).toBe('the finalizers of ns/t changed since they were read (the API server refused the guarded patch)');
    const invalid = new ApiException(422, 'PATCH failed', JSON.stringify({
      kind: 'Status', code: 422, reason: 'Invalid', message: 'Toy "t" is invalid', details: { causes: [{ field: 'metadata.finalizers[1]', message: 'name part must consist of…' }] },
    }), {});
    const refused = setup(invalid);
    const passedOn = await addFinalizer(refused.client, toy(['a']), 'bad name', {}).catch((e: unknown) => e);
    expect(passedOn).toBe(invalid);
    expect(isConflict(passedOn)).toBe(false);
  });
});

describe('removeFinalizer', () => {
  it('json (default): tests the finalizer at its index, then removes that index', async () => {
    const answer = toy(['a', 'b']);
    const { client, requests } = setup(answer);
    expect(await removeFinalizer(client, toy(['a', F, 'b']), F)).toBe(answer);
    expect(requests).toEqual([
      {
        method: 'PATCH',
        path: PATH,
        contentType: JSON_PATCH,
        query: { fieldManager: 'toy-controller' },
        body: [
          { op: 'test', path: '/metadata/finalizers/1', value: F },
          { op: 'remove', path: '/metadata/finalizers/1' },
        ],
      },
    ]);
  });

  it('merge: sends the list without it, with the resourceVersion it was based on', async () => {
    const { client, requests } = setup(toy(['a', 'b']));
    await removeFinalizer(client, toy(['a', F, 'b']), F, { strategy: 'merge' });
    expect(requests[0]).toMatchObject({ contentType: MERGE_PATCH, body: { metadata: { finalizers: ['a', 'b'], resourceVersion: '42' } } });
  });

  it('merge: removing the last finalizer sends an empty list, not null', async () => {
    const { client, requests } = setup(toy([]));
    await removeFinalizer(client, toy([F]), F, { strategy: 'merge' });
    expect(requests[0]?.body).toEqual({ metadata: { finalizers: [], resourceVersion: '42' } });
  });

  it.each(['json', 'merge'] as const)('%s: writes nothing when the finalizer is absent', async (strategy) => {
    const { client, requests } = setup();
    const obj = toy(['a']);
    expect(await removeFinalizer(client, obj, F, { strategy })).toBe(obj);
    expect(await removeFinalizer(client, toy(), F, { strategy })).toEqual(toy());
    expect(requests).toEqual([]);
  });

  it.each(['json', 'merge'] as const)('%s: treats NotFound as done (the object is already gone)', async (strategy) => {
    const { client } = setup(statusError(404, 'NotFound'));
    const obj = toy([F]);
    await expect(removeFinalizer(client, obj, F, { strategy })).resolves.toBe(obj);
  });

  it.each(['json', 'merge'] as const)('%s: passes other failures on', async (strategy) => {
    const { client } = setup(statusError(409, 'Conflict'));
    expect(isConflict(await removeFinalizer(client, toy([F]), F, { strategy }).catch((e: unknown) => e))).toBe(true);
  });

  it('json: a failed test (the list moved) is a Conflict', async () => {
    const { client } = setup(statusError(422, 'Invalid'));
    expect(isConflict(await removeFinalizer(client, toy([F]), F).catch((e: unknown) => e))).toBe(true);
  });
});
