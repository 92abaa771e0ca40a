import { describe, expect, it } from '@jest/globals';
import { PREPROVISIONING_IMAGE_FINALIZER } from '../../api/finalizers.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { PreprovisioningImageStore } from './preprovisioning-image-store.ts';
import type { SecretAccess } from '../../secrets/index.ts';

const HOST: KubeObject = { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: 'host-0', namespace: 'test', uid: 'uid-0', labels: { rack: 'a' } } };
const WANTED = { acceptFormats: ['iso', 'initrd'] as ('iso' | 'initrd')[], architecture: 'x86_64' };
const OWNER = { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'host-0', uid: 'uid-0', controller: true, blockOwnerDeletion: true };

function image(status?: Record<string, unknown>, spec: Record<string, unknown> = { acceptFormats: ['iso', 'initrd'], architecture: 'x86_64' }): KubeObject {
  return {
    apiVersion: 'metal3.io/v1alpha1', kind: 'PreprovisioningImage',
    metadata: { name: 'host-0', namespace: 'test', generation: 3, resourceVersion: '9', labels: { rack: 'a' }, finalizers: [PREPROVISIONING_IMAGE_FINALIZER], ownerReferences: [OWNER] },
    spec, ...(status ? { status } : {}),
  };
}

const ready = (generation = 3) => [
  { type: 'Ready', status: 'True', reason: 'ImageSuccess', message: '', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: generation },
  { type: 'Error', status: 'False', reason: 'ImageSuccess', message: '', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: generation },
];

function setUp(cached: KubeObject | undefined) {
  const writes: Array<{ verb: string; body: unknown }> = [];
  const client = {
    create: async (body: unknown) => writes.push({ verb: 'create', body }),
    patch: async (_name: unknown, body: unknown) => writes.push({ verb: 'patch', body }),
  } as unknown as ResourceClient<KubeObject>;
  const secrets: SecretAccess = { claim: async () => undefined, release: async () => undefined };
  const store = new PreprovisioningImageStore({ client, cache: { get: () => cached }, secrets });
  return { store, writes };
}

describe('the host\'s PreprovisioningImage', () => {
  it('is created with the host as controller owner, its labels, BMO\'s finalizer and what the host can boot', async () => {
    const { store, writes } = setUp(undefined);
    expect(await store.acquire(HOST, WANTED)).toEqual({ kind: 'pending', reason: 'created the PreprovisioningImage' });
    expect(writes).toEqual([{ verb: 'create', body: expect.objectContaining({
      metadata: { name: 'host-0', namespace: 'test', labels: { rack: 'a' }, finalizers: [PREPROVISIONING_IMAGE_FINALIZER], ownerReferences: [OWNER] },
      spec: { architecture: 'x86_64', acceptFormats: ['iso', 'initrd'] },
    }) }]);
  });

  it('gets a changed request as a spec patch pinned to the version read', async () => {
    const { store, writes } = setUp(image(undefined, { acceptFormats: ['initrd'], architecture: 'aarch64' }));
    expect((await store.acquire(HOST, WANTED)).kind).toBe('pending');
    expect(writes).toEqual([{ verb: 'patch', body: { metadata: { resourceVersion: '9' }, spec: { networkDataName: null, architecture: 'x86_64', acceptFormats: ['iso', 'initrd'] } } }]);
  });

  it('is used only when ready for this generation, architecture and an accepted format; an Error condition fails', async () => {
    const status = { imageUrl: 'http://i/r', kernelUrl: 'http://i/k', format: 'initrd', architecture: 'x86_64', conditions: ready() };
    expect(await setUp(image(status)).store.acquire(HOST, WANTED)).toEqual({ kind: 'ready', image: { format: 'initrd', imageUrl: 'http://i/r', kernelUrl: 'http://i/k' } });
    expect(await setUp(image()).store.acquire(HOST, WANTED)).toEqual({ kind: 'pending', reason: 'no image provider has filled it in yet' });
    expect((await setUp(image({ ...status, conditions: ready(2) })).store.acquire(HOST, WANTED)).kind).toBe('pending');
    expect((await setUp(image({ ...status, architecture: 'aarch64' })).store.acquire(HOST, WANTED)).kind).toBe('pending');
    expect((await setUp(image({ ...status, format: undefined })).store.acquire(HOST, WANTED)).kind).toBe('pending');
    const failing = [{ ...ready()[0], status: 'False' }, { ...ready()[1], status: 'True', reason: 'ImageBuildInvalid', message: 'Cannot generate image: boom' }];
    expect(await setUp(image({ ...status, conditions: failing })).store.acquire(HOST, WANTED)).toEqual({ kind: 'error', message: 'Cannot generate image: boom' });
  });
});
