import { describe, expect, it } from '@jest/globals';
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
