import { describe, expect, it } from '@jest/globals';
import { DATAIMAGE_FINALIZER } from '../../api/finalizers.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import { busy, done, failed } from '../../provisioner/result.ts';
import type { ProvisionerResult } from '../../provisioner/result.ts';
import type { DataImageReading } from '../../provisioner/provisioner.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { silentLogger } from '../../runtime/logger.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { DataImageReconciler } from './reconciler.ts';

const NAME = { namespace: 'test', name: 'host-0' };
const host = (annotations: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { ...NAME, uid: 'host-uid', annotations },
  spec: { online: true }, status: { provisioning: { ID: 'node-1', state: 'provisioned' } },
});
// A plain owner reference, as BMO's SetOwnerReference writes it: no controller, no blockOwnerDeletion.
const owner = { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'host-0', uid: 'host-uid' };
const image = (metadata: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'DataImage', metadata: { ...NAME, uid: 'di-uid', resourceVersion: '7', ...metadata }, spec: { url: 'http://127.0.0.1/data.iso' },
});

/** `answers`: what successive patches return (the image as it was read once they run out). */
function setUp(options: { image?: KubeObject; host?: KubeObject; readings?: ProvisionerResult<DataImageReading>[]; answers?: KubeObject[] }) {
  const patches: Array<{ patch: unknown; subresource?: string }> = [];
  const answers = [...(options.answers ?? [])];
  const client = {
    patch: async (_name: unknown, patch: unknown, patchOptions: { subresource?: string }) => {
      patches.push({ patch, ...(patchOptions.subresource ? { subresource: patchOptions.subresource } : {}) });
      return answers.shift() ?? options.image!;
    },
  } as unknown as ResourceClient<KubeObject>;
  const readings = [...(options.readings ?? [])];
  const provisioner = { dataImageStatus: async () => readings.shift() ?? done({ attached: false }) } as unknown as Provisioner;
  const events: string[] = [];
  const reconciler = new DataImageReconciler({
    images: { client, cache: { get: () => options.image } },
    hosts: { get: () => options.host },
    provisioner,
    events: { event: (_object: KubeObject, event: { reason: string; note?: string }) => events.push(`${event.reason}: ${event.note ?? ''}`) } as never,
  });
  const reconcile = () => reconciler.reconcile(NAME, { log: silentLogger(), signal: new AbortController().signal, reconcileID: 'r', controller: 'dataimage' });
  return { patches, events, reconcile };
}

describe('DataImage controller', () => {
  it('makes the host an owner, then adds BMO\'s finalizer to what that write returned, in the same pass', async () => {
    const owned = image({ ownerReferences: [owner], resourceVersion: '8' });
    const first = setUp({ image: image(), host: host(), answers: [owned, image({ ownerReferences: [owner], resourceVersion: '9', finalizers: [DATAIMAGE_FINALIZER] })] });
    expect(await first.reconcile()).toEqual({});
    expect(first.patches).toEqual([
      { patch: { metadata: { ownerReferences: [owner], resourceVersion: '7' } } },
      { patch: [{ op: 'test', path: '/metadata/resourceVersion', value: '8' }, { op: 'add', path: '/metadata/finalizers', value: [DATAIMAGE_FINALIZER] }] },
    ]);
    const second = setUp({ image: owned, host: host() });
    expect(await second.reconcile()).toEqual({});
    expect(second.patches.map((p) => p.patch)).toEqual([[{ op: 'test', path: '/metadata/resourceVersion', value: '8' }, { op: 'add', path: '/metadata/finalizers', value: [DATAIMAGE_FINALIZER] }]]);
  });

  it('adds the host beside another owner, and replaces a reference to an earlier host of the same name', async () => {
    const other = { apiVersion: 'example.com/v1', kind: 'Bundle', name: 'b', uid: 'bundle-uid', controller: true };
    const shared = setUp({ image: image({ ownerReferences: [other] }), host: host() });
    await shared.reconcile();
    expect(shared.patches[0]).toEqual({ patch: { metadata: { ownerReferences: [other, owner], resourceVersion: '7' } } });
    const stale = setUp({ image: image({ ownerReferences: [{ ...owner, uid: 'earlier-host-uid' }] }), host: host() });
    await stale.reconcile();
    expect(stale.patches[0]).toEqual({ patch: { metadata: { ownerReferences: [owner], resourceVersion: '7' } } });
    expect([...shared.events, ...stale.events]).toEqual([]);
  });

  it('keeps a deleted DataImage while the image is attached, and lets it go once detached', async () => {
    const deleted = image({ ownerReferences: [owner], finalizers: [DATAIMAGE_FINALIZER], deletionTimestamp: '2026-01-01T00:00:00Z' });
    const waiting = setUp({ image: deleted, host: host(), readings: [busy(3000, 'locked'), done({ attached: true })] });
    expect(await waiting.reconcile()).toEqual({ requeueAfter: 3000 });
    expect(await waiting.reconcile()).toEqual({ requeueAfter: 60_000 });
    expect(await waiting.reconcile()).toEqual({});
    expect(waiting.patches.map((entry) => entry.patch)).toEqual([[
      { op: 'test', path: '/metadata/finalizers/0', value: DATAIMAGE_FINALIZER }, { op: 'remove', path: '/metadata/finalizers/0' },
    ]]);
  });

  it('counts a failed read on the DataImage with an event', async () => {
    const deleted = image({ ownerReferences: [owner], finalizers: [DATAIMAGE_FINALIZER], deletionTimestamp: '2026-01-01T00:00:00Z' });
    const failing = setUp({ image: deleted, host: host(), readings: [failed('failed to read virtual media of node node-1: no management')] });
    expect(await failing.reconcile()).toEqual({ requeueAfter: 30_000 });
    expect(failing.patches).toEqual([{ patch: { status: { error: { count: 1, message: 'failed to read virtual media of node node-1: no management' } } }, subresource: 'status' }]);
    expect(failing.events).toEqual(['DataImageError: failed to read virtual media of node node-1: no management']);
  });

  it('lets go without asking Ironic when the host is gone or detached; does nothing while it is paused', async () => {
    const deleted = image({ ownerReferences: [owner], finalizers: [DATAIMAGE_FINALIZER], deletionTimestamp: '2026-01-01T00:00:00Z' });
    const noHost = setUp({ image: deleted, readings: [failed('must not be read')] });
    await noHost.reconcile();
    const detached = setUp({ image: deleted, host: host({ 'baremetalhost.metal3.io/detached': '' }), readings: [failed('must not be read')] });
    await detached.reconcile();
    for (const run of [noHost, detached]) expect(run.patches.map((entry) => entry.patch)).toEqual([[expect.objectContaining({ op: 'test' }), expect.objectContaining({ op: 'remove' })]]);
    const paused = setUp({ image: image(), host: host({ 'baremetalhost.metal3.io/paused': '' }) });
    expect(await paused.reconcile()).toEqual({});
    expect(paused.patches).toEqual([]);
  });
});
