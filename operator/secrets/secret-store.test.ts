import { describe, expect, it } from '@jest/globals';
import type { Informer } from '../runtime/informer.ts';
import type { ObjectName } from '../runtime/kube-object.ts';
import type { ResourceClient } from '../runtime/resource-client.ts';
import { SecretStore } from './secret-store.ts';
import type { SecretObject } from './secret-store.ts';

const LABELLED = { 'environment.metal3.io': 'baremetal' };
const stored = (data: Record<string, string> | undefined, labels: Record<string, string> = LABELLED): SecretObject => ({
  apiVersion: 'v1', kind: 'Secret', metadata: { namespace: 'metal3', name: 'switch-configs', resourceVersion: '41', labels }, ...(data ? { data } : {}),
});

/** A store over a fake client that records patches; the cache holds `cached`. */
function setUp(cached: SecretObject | undefined) {
  const patches: { patch: unknown; type: string }[] = [];
  let current = cached;
  const client = {
    patch: async (_name: ObjectName, patch: { metadata?: { labels?: Record<string, string> }; data?: Record<string, string | null> }, options: { type: string }) => {
      patches.push({ patch, type: options.type });
      if (!current) throw Object.assign(new Error('not found'), { code: 404, reason: 'NotFound', statusCode: 404 });
      const data = { ...(current.data ?? {}), ...(patch.data ?? {}) };
      for (const [key, value] of Object.entries(data)) if (value === null) delete data[key];
      current = { ...current, metadata: { ...current.metadata, resourceVersion: String(Number(current.metadata.resourceVersion) + 1) }, data: data as Record<string, string> };
      return current;
    },
  } as unknown as ResourceClient<SecretObject>;
  const cache = { get: () => cached, addHandler: () => () => {}, getByKey: () => cached } as unknown as Informer<SecretObject>;
  return { store: new SecretStore({ client, cache }), patches };
}
const NAME = { namespace: 'metal3', name: 'switch-configs' };

describe('SecretStore.replaceData', () => {
  it('writes nothing when the Secret already holds exactly that data', async () => {
    const { store, patches } = setUp(stored({ 'a.key': 'QQ==' }));
    await expect(store.replaceData(NAME, { 'a.key': 'QQ==' })).resolves.toBe(true);
    expect(patches).toEqual([]);
  });

  it('replaces the data as a whole, pinned to the version read, dropping keys no longer wanted', async () => {
    const { store, patches } = setUp(stored({ 'old.key': 'T0xE', 'a.key': 'QQ==' }));
    await expect(store.replaceData(NAME, { 'a.key': 'Qg==', 'b.key': 'Qw==' })).resolves.toBe(true);
    expect(patches).toEqual([{ type: 'merge', patch: { metadata: { resourceVersion: '41' }, data: { 'old.key': null, 'a.key': 'Qg==', 'b.key': 'Qw==' } } }]);
  });

  it('labels a Secret the cache does not hold yet before anything else, and answers false when there is none', async () => {
    const { store, patches } = setUp(undefined);
    await expect(store.replaceData(NAME, {})).resolves.toBe(false);
    expect(patches).toEqual([{ type: 'strategic', patch: { metadata: { labels: LABELLED } } }]);
  });
});

describe('SecretStore.heldBy', () => {
  it('names the cached Secrets of the namespace the owner holds: its reference and our finalizer', () => {
    const owned = (name: string, namespace: string, uid: string, finalizers = ['baremetalhost.metal3.io/secret']): SecretObject =>
      ({ metadata: { name, namespace, finalizers, ownerReferences: [{ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'h', uid }] } });
    // A Secret the host reads without holding it (a PreprovisioningImage's network data) has no finalizer of ours.
    const all = [owned('current', 'metal3', 'uid-h'), owned('former', 'metal3', 'uid-h'), owned('other-host', 'metal3', 'uid-x'),
      owned('elsewhere', 'other', 'uid-h'), owned('network-data', 'metal3', 'uid-h', [])];
    const cache = { list: (namespace?: string) => all.filter((secret) => secret.metadata.namespace === namespace), get: () => undefined } as unknown as Informer<SecretObject>;
    const store = new SecretStore({ client: {} as ResourceClient<SecretObject>, cache });
    expect(store.heldBy('metal3', 'uid-h')).toEqual(['current', 'former']);
  });
});
