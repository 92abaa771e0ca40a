import { describe, expect, it } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import { HARDWARE_DATA_FINALIZER } from '../../api/finalizers.ts';
import type { Informer } from '../../runtime/informer.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { allows } from '../../runtime/predicates.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { HardwareDataStore } from './hardware-data-store.ts';

const OWNER = { namespace: 'test', name: 'host-0', uid: 'uid-0' };
const HARDWARE = { hostname: 'host-0' };

/** The store over an empty cache; creates answer with resourceVersion `created`. */
function storeCreating(created: string, cachedVersion?: () => string | undefined) {
  const client = {
    create: async (object: KubeObject) => ({ ...object, metadata: { ...object.metadata, resourceVersion: created } }),
  } as unknown as ResourceClient<KubeObject>;
  const cache = {
    get: () => undefined,
    getByKey: () => {
      const version = cachedVersion?.();
      return version === undefined ? undefined : { metadata: { name: 'host-0', namespace: 'test', resourceVersion: version } };
    },
  } as unknown as Informer<KubeObject>;
  return new HardwareDataStore({ client, cache, wakeHost: () => {} });
}

const event = (resourceVersion: string): KubeObject => ({ metadata: { name: 'host-0', namespace: 'test', resourceVersion } });

describe('HardwareDataStore: its own writes wake no host', () => {
  it('skips the event of the version it created, once; any other version wakes the host', async () => {
    const store = storeCreating('12');
    await store.replace(OWNER, HARDWARE);

    expect(allows(store.notOwnWrites, { type: 'create', object: event('12') })).toBe(false);
    // The entry went with that event: the same version again is not ours to skip.
    expect(allows(store.notOwnWrites, { type: 'update', oldObject: event('12'), object: event('12') })).toBe(true);
    expect(allows(store.notOwnWrites, { type: 'update', oldObject: event('12'), object: event('13') })).toBe(true);
  });
});

const hardwareData = (resourceVersion: string, finalizers: string[]): KubeObject =>
  ({ metadata: { name: 'host-0', namespace: 'test', resourceVersion, finalizers } });
const invalid = () => new ApiException(422, 'PATCH failed', JSON.stringify({ kind: 'Status', code: 422, reason: 'Invalid' }), {});

/**
 * The store over a cache holding `cached`; the client records each call and answers a read with
 * `stored`, a patch with the next of `patchAnswers` (an Error is thrown) or else `stored` without
 * our finalizer.
 */
function storeOver(options: { cached?: KubeObject; stored?: KubeObject; patchAnswers?: unknown[] }) {
  const calls: string[] = [];
  const stored = options.stored ?? options.cached;
  const patchAnswers = [...(options.patchAnswers ?? [])];
  const client = {
    get: async () => {
      calls.push('get');
      return stored;
    },
    patch: async () => {
      calls.push('patch');
      const answer = patchAnswers.shift();
      if (answer instanceof Error) throw answer;
      return answer ?? { ...stored!, metadata: { ...stored!.metadata, resourceVersion: '99', finalizers: [] } };
    },
    create: async (object: KubeObject) => ({ ...object, metadata: { ...object.metadata, resourceVersion: '20' } }),
  } as unknown as ResourceClient<KubeObject>;
  const cache = { get: () => options.cached, getByKey: () => options.cached } as unknown as Informer<KubeObject>;
  return { store: new HardwareDataStore({ client, cache, wakeHost: () => {} }), calls };
}

describe('HardwareDataStore.release', () => {
  const NAME = { namespace: 'test', name: 'host-0' };

  it('removes the finalizer the cache shows without reading first, once the cache has seen its writes', async () => {
    const { store, calls } = storeOver({ cached: hardwareData('10', [HARDWARE_DATA_FINALIZER]) });
    await store.release(NAME);
    expect(calls).toEqual(['patch']);
  });

  it('sends nothing when the cache, having seen its writes, shows no finalizer or no object', async () => {
    const released = storeOver({ cached: hardwareData('10', []) });
    await released.store.release(NAME);
    expect(released.calls).toEqual([]);
    const absent = storeOver({});
    await absent.store.release(NAME);
    expect(absent.calls).toEqual([]);
  });

  it('reads fresh while a write of its own is not in the cache yet', async () => {
    // Inspection just created it (the cache has not caught up): the finalizer is on the server only.
    const { store, calls } = storeOver({ stored: hardwareData('20', [HARDWARE_DATA_FINALIZER]) });
    await store.replace(OWNER, HARDWARE);
    await store.release(NAME);
    expect(calls).toEqual(['get', 'patch']);
  });

  it('reads fresh when the finalizer list changed since the cache saw it (the guarded patch is refused)', async () => {
    const { store, calls } = storeOver({
      cached: hardwareData('10', [HARDWARE_DATA_FINALIZER]),
      stored: hardwareData('11', ['example.com/other', HARDWARE_DATA_FINALIZER]),
      patchAnswers: [invalid()],
    });
    await store.release(NAME);
    expect(calls).toEqual(['patch', 'get', 'patch']);
  });

  it('a second release before the cache saw the first reads, and finds nothing to remove', async () => {
    const { store, calls } = storeOver({ cached: hardwareData('10', [HARDWARE_DATA_FINALIZER]), stored: hardwareData('99', []) });
    await store.release(NAME);
    await store.release(NAME);
    expect(calls).toEqual(['patch', 'get']);
  });
});
