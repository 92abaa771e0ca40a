import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../runtime/kube-object.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { UpdatePolicyStore } from './update-policy-store.ts';

const HOST: KubeObject = { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: 'host-0', namespace: 'test', uid: 'uid-0' } };
const policy = (ownerReferences?: KubeObject['metadata']['ownerReferences']): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1',
  kind: 'HostUpdatePolicy',
  metadata: { name: 'host-0', namespace: 'test', resourceVersion: '7', ...(ownerReferences ? { ownerReferences } : {}) },
  spec: { firmwareSettings: 'onReboot' },
} as KubeObject);

/** The store over a one-object cache, recording what it writes. */
function storeWith(cached: KubeObject | undefined, replace: (obj: KubeObject) => Promise<KubeObject> = async (obj) => obj) {
  const written: KubeObject[] = [];
  const client = { replace: async (obj: KubeObject) => { written.push(obj); return replace(obj); } } as unknown as ResourceClient<KubeObject>;
  return { store: new UpdatePolicyStore({ client, cache: { get: () => cached } }), written };
}

describe('UpdatePolicyStore', () => {
  it('answers undefined for a host without a policy, writing nothing', async () => {
    const { store, written } = storeWith(undefined);
    expect(await store.acquire(HOST)).toBeUndefined();
    expect(written).toEqual([]);
  });

  it("adds the host as a plain owner once, on the cached version, and returns the policy's spec", async () => {
    const { store, written } = storeWith(policy());
    expect(await store.acquire(HOST)).toEqual({ firmwareSettings: 'onReboot' });
    expect(written).toHaveLength(1);
    expect(written[0]!.metadata).toMatchObject({ resourceVersion: '7', ownerReferences: [{ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'host-0', uid: 'uid-0' }] });
    expect(written[0]!.metadata.ownerReferences![0]).not.toHaveProperty('controller');

    const owned = storeWith(policy([{ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'host-0', uid: 'uid-0' }]));
    expect(await owned.store.acquire(HOST)).toEqual({ firmwareSettings: 'onReboot' });
    expect(owned.written).toEqual([]);
  });

  it('leaves a conflict to the next pass, and names any other failure', async () => {
    const conflict = Object.assign(new Error('the object has been modified'), { code: 409, reason: 'Conflict' });
    const racing = storeWith(policy(), async () => { throw conflict; });
    expect(await racing.store.acquire(HOST)).toEqual({ firmwareSettings: 'onReboot' });

    const refused = storeWith(policy(), async () => { throw Object.assign(new Error('forbidden'), { code: 403, reason: 'Forbidden' }); });
    await expect(refused.store.acquire(HOST)).rejects.toThrow('failed setting owner reference on hostUpdatePolicy: forbidden');
  });
});
