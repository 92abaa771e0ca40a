import { describe, expect, it } from '@jest/globals';
import { PREPROVISIONINGIMAGE_FINALIZER } from '../../api/finalizers.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { silentLogger } from '../../runtime/logger.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { defaultImageProvider } from './default-image-provider.ts';
import { PreprovisioningImageReconciler } from './reconciler.ts';

const NAME = { namespace: 'test', name: 'host-0' };
const A = 'http://127.0.0.1:8080';
const NOW = new Date('2026-11-26T12:00:00Z');

const image = (extra: { status?: unknown; finalizers?: string[]; acceptFormats?: string[]; networkDataName?: string } = {}): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'PreprovisioningImage',
  metadata: { ...NAME, generation: 2, resourceVersion: '7', finalizers: extra.finalizers ?? [PREPROVISIONINGIMAGE_FINALIZER] },
  spec: { architecture: 'x86_64', acceptFormats: extra.acceptFormats ?? ['iso', 'initrd'], ...(extra.networkDataName ? { networkDataName: extra.networkDataName } : {}) },
  ...(extra.status ? { status: extra.status } : {}),
});

function setUp(object: KubeObject, env: Record<string, string> = { DEPLOY_KERNEL_URL: `${A}/k`, DEPLOY_RAMDISK_URL: `${A}/r` }) {
  const patches: Array<{ patch: unknown; subresource?: string }> = [];
  const client = {
    patch: async (_name: unknown, patch: unknown, options: { subresource?: string }) => {
      patches.push({ patch, ...(options.subresource ? { subresource: options.subresource } : {}) });
      return object;
    },
  } as unknown as ResourceClient<KubeObject>;
  const secrets = { get: async () => { throw Object.assign(new Error('not found'), { status: 404, reason: 'NotFound', code: 404 }); } };
  const reconciler = new PreprovisioningImageReconciler({
    images: { client, cache: { get: () => object } }, secrets: secrets as never, provider: defaultImageProvider(env), now: () => NOW,
  });
  const reconcile = () => reconciler.reconcile(NAME, { log: silentLogger(), signal: new AbortController().signal, reconcileID: 'r', controller: 'preprovisioningimage' });
  return { patches, reconcile };
}

const statusOf = (run: { patches: Array<{ patch: unknown }> }) => (run.patches.at(-1)?.patch as { status: Record<string, unknown> }).status;

describe('PreprovisioningImage controller with the default provider', () => {
  it('adds BMO\'s finalizer first, then records the request in the same pass', async () => {
    const run = setUp(image({ finalizers: [] }));
    await run.reconcile();
    expect(JSON.stringify(run.patches[0]?.patch)).toContain(PREPROVISIONINGIMAGE_FINALIZER);
    expect(run.patches[1]?.subresource).toBe('status');
    expect(run.patches).toHaveLength(2);
  });

  it('records the request with no URL, then fills in the provider\'s image for the first accepted format it offers', async () => {
    const first = setUp(image());
    await first.reconcile();
    expect(first.patches[0]?.subresource).toBe('status');
    const recorded = statusOf(first);
    expect(recorded).toMatchObject({ imageUrl: null, kernelUrl: null, format: 'initrd', architecture: 'x86_64' });
    expect(recorded.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'ImageSuccess', message: 'Config changed', observedGeneration: 2, lastTransitionTime: '2026-11-26T12:00:00Z' },
      { type: 'Error', status: 'False', reason: 'ImageSuccess', message: '', observedGeneration: 2, lastTransitionTime: '2026-11-26T12:00:00Z' },
    ]);
    const second = setUp(image({ status: { format: 'initrd', architecture: 'x86_64', conditions: recorded.conditions } }));
    await second.reconcile();
    expect(statusOf(second)).toMatchObject({ imageUrl: `${A}/r`, kernelUrl: `${A}/k`, format: 'initrd', architecture: 'x86_64' });
    expect(statusOf(second).conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Ready', status: 'True', message: 'Generated image' })]));
    // Nothing changed since: no write.
    const third = setUp(image({ status: statusOf(second) }));
    await third.reconcile();
    expect(third.patches).toEqual([]);
  });

  it('says so in the Error condition when no accepted format is offered, or the network data Secret is missing', async () => {
    const noFormat = setUp(image({ acceptFormats: ['iso'] }));
    expect(await noFormat.reconcile()).toEqual({});
    expect(statusOf(noFormat).conditions).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'Ready', status: 'False', reason: 'ConfigurationError' }),
      expect.objectContaining({ type: 'Error', status: 'True', reason: 'ConfigurationError', message: 'No acceptable image format supported' }),
    ]));
    const noSecret = setUp(image({ networkDataName: 'gone' }));
    expect(await noSecret.reconcile()).toEqual({ requeueAfter: 10_000 });
    expect(statusOf(noSecret).conditions).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'Error', status: 'True', reason: 'MissingNetworkData', message: 'NetworkData secret not found' }),
    ]));
  });

  it('lets a deleted image go once other finalizers are gone', async () => {
    const held = setUp({ ...image({ finalizers: ['baremetalhost.metal3.io/preprovisioningImage', PREPROVISIONINGIMAGE_FINALIZER] }), metadata: { ...image().metadata, deletionTimestamp: '2026-11-26T12:00:00Z', finalizers: ['baremetalhost.metal3.io/preprovisioningImage', PREPROVISIONINGIMAGE_FINALIZER] } });
    await held.reconcile();
    expect(held.patches).toEqual([]);
    const free = setUp({ ...image(), metadata: { ...image().metadata, deletionTimestamp: '2026-11-26T12:00:00Z' } });
    await free.reconcile();
    expect(JSON.stringify(free.patches[0]?.patch)).toContain('remove');
  });
});
