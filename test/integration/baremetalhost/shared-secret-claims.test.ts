import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { SECRET_FINALIZER } from '../../../operator/api/finalizers.ts';
import { ENVIRONMENT_LABEL, ENVIRONMENT_LABEL_VALUE } from '../../../operator/api/labels.ts';
import { SecretStore, type SecretObject } from '../../../operator/secrets/index.ts';
import { SecretResource, createResourceClient, isNotFound } from '../../../operator/runtime/index.ts';
import type { Informer, ResourceClient } from '../../../operator/runtime/index.ts';
import { createNamespace, stackTransport } from '../runtime/toy-cluster.ts';

// Many hosts claiming one BMC Secret at once, none of them having read it (a Secret not claimed
// yet is not cached), on the real API server: every claim lands, none is lost and none conflicts.
jest.setTimeout(180_000);

const HOSTS = 60;
const FOREIGN_FINALIZER = 'example.com/keep';
const foreignOwner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'someone-else', uid: '00000000-0000-0000-0000-0000000000ff' };
const hostUid = (index: number) => `00000000-0000-0000-0000-${index.toString(16).padStart(12, '0')}`;

let namespace = '';
let secrets: ResourceClient<SecretObject>;
let store: SecretStore;

beforeAll(async () => {
  const { transport } = stackTransport();
  namespace = await createNamespace(transport, 'it-shared-secret-claims');
  secrets = createResourceClient<SecretObject>(transport, SecretResource);
  // Nothing is ever cached here: every claim is the whole claim, sent without a read.
  store = new SecretStore({ client: secrets, cache: { get: () => undefined } as unknown as Informer<SecretObject> });
});

describe('claiming one Secret from many hosts', () => {
  it(`takes ${HOSTS} simultaneous claims without a conflict, keeping what others put there, and answers with the Secret`, async () => {
    const created = await secrets.create({
      metadata: { name: 'shared-bmc', namespace, finalizers: [FOREIGN_FINALIZER], ownerReferences: [foreignOwner] },
      data: { username: Buffer.from('admin').toString('base64') },
    });
    const outcomes = await Promise.allSettled(Array.from({ length: HOSTS }, (_, index) =>
      store.claim({ namespace, name: 'shared-bmc' }, { owner: { name: `host-${index}`, uid: hostUid(index) }, finalizer: true })));
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    for (const outcome of outcomes) {
      expect(outcome.status === 'fulfilled' ? outcome.value?.data : undefined).toEqual(created.data);
    }

    const stored = await secrets.get({ namespace, name: 'shared-bmc' });
    expect(stored.metadata.labels?.[ENVIRONMENT_LABEL]).toBe(ENVIRONMENT_LABEL_VALUE);
    expect([...(stored.metadata.finalizers ?? [])].sort()).toEqual([SECRET_FINALIZER, FOREIGN_FINALIZER].sort());
    const uids = (stored.metadata.ownerReferences ?? []).map((ref) => ref.uid).sort();
    expect(uids).toEqual([foreignOwner.uid, ...Array.from({ length: HOSTS }, (_, index) => hostUid(index))].sort());
    expect(stored.metadata.ownerReferences?.filter((ref) => ref.controller !== undefined)).toEqual([]);
  });

  it('turns an old controller reference into a plain one, and releases only its own finalizer', async () => {
    const created = await secrets.create({
      metadata: {
        name: 'old-claim', namespace, finalizers: [SECRET_FINALIZER, FOREIGN_FINALIZER],
        ownerReferences: [{ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'host-0', uid: hostUid(0), controller: true }, foreignOwner],
      },
    });
    await store.claim({ namespace, name: created.metadata.name ?? '' }, { owner: { name: 'host-0', uid: hostUid(0) }, finalizer: true });
    const claimed = await secrets.get({ namespace, name: 'old-claim' });
    expect(claimed.metadata.ownerReferences).toEqual([
      { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'host-0', uid: hostUid(0) },
      foreignOwner,
    ]);

    await store.release({ namespace, name: 'old-claim' });
    expect((await secrets.get({ namespace, name: 'old-claim' })).metadata.finalizers).toEqual([FOREIGN_FINALIZER]);
  });

  it('lets one host go of a Secret: only its owner reference, and our finalizer unless asked to keep it', async () => {
    await secrets.create({ metadata: { name: 'replaced', namespace, finalizers: [FOREIGN_FINALIZER], ownerReferences: [foreignOwner] } });
    for (const index of [0, 1]) await store.claim({ namespace, name: 'replaced' }, { owner: { name: `host-${index}`, uid: hostUid(index) }, finalizer: true });
    const refs = async () => ((await secrets.get({ namespace, name: 'replaced' })).metadata.ownerReferences ?? []).map((ref) => ref.uid).sort();
    const finalizers = async () => [...((await secrets.get({ namespace, name: 'replaced' })).metadata.finalizers ?? [])].sort();

    await store.letGo({ namespace, name: 'replaced' }, { ownerUid: hostUid(0), keepFinalizer: true });
    expect(await refs()).toEqual([foreignOwner.uid, hostUid(1)].sort());
    expect(await finalizers()).toEqual([SECRET_FINALIZER, FOREIGN_FINALIZER].sort());
    await store.letGo({ namespace, name: 'replaced' }, { ownerUid: hostUid(1), keepFinalizer: false });
    expect(await refs()).toEqual([foreignOwner.uid]);
    expect(await finalizers()).toEqual([FOREIGN_FINALIZER]);
    // Nothing left to take, and a Secret that is gone: no write, no error.
    await store.letGo({ namespace, name: 'replaced' }, { ownerUid: hostUid(1), keepFinalizer: false });
    await store.letGo({ namespace, name: 'never-there' }, { ownerUid: hostUid(1), keepFinalizer: false });
  });

  it('answers undefined for a Secret that does not exist, and creates none', async () => {
    expect(await store.claim({ namespace, name: 'missing-bmc' }, { owner: { name: 'host-0', uid: hostUid(0) }, finalizer: true })).toBeUndefined();
    const read = await secrets.get({ namespace, name: 'missing-bmc' }).then(() => 'found', (error: unknown) => (isNotFound(error) ? 'not found' : String(error)));
    expect(read).toBe('not found');
  });
});
