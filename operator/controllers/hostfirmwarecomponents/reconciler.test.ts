import { describe, expect, it } from '@jest/globals';
import type { FirmwareComponentStatus } from '../../api/hostfirmwarecomponents.ts';
import type { FirmwareRefreshes, Provisioner } from '../../provisioner/provisioner.ts';
import type { EventRecorder } from '../../runtime/event-recorder.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { silentLogger } from '../../runtime/logger.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { FakeClock } from '../../runtime/testing/fake-clock.ts';
import { HostFirmwareComponentsReconciler } from './reconciler.ts';

const NAME = { namespace: 'test', name: 'host-0' };
const COMPONENTS: FirmwareComponentStatus[] = [{ component: 'bios', initialVersion: '1.0.0', currentVersion: '1.0.0' }];

const host = (state: string, options: { operationalStatus?: string } = {}): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
  metadata: { ...NAME, uid: 'host-uid' },
  spec: { online: true },
  status: { operationalStatus: options.operationalStatus ?? 'OK', provisioning: { ID: 'node-1', state } },
});

/** One host, its HostFirmwareComponents as the cache and the API server hold it, and a back end that counts its firmware reads. */
function setUp(options: { cache?: 'current' | 'before-status' | 'before-create' } = {}) {
  let current = host('inspecting');
  let refreshes: FirmwareRefreshes = {};
  let stored: KubeObject | undefined;
  let asCreated: KubeObject | undefined;
  let reads = 0;
  let gets = 0;
  let version = 0;
  const client = {
    create: async (object: KubeObject) =>
      (asCreated = stored = { ...object, metadata: { ...object.metadata, generation: 1, resourceVersion: String(++version) } }),
    get: async () => {
      gets++;
      if (!stored) throw Object.assign(new Error('not found'), { status: 404, reason: 'NotFound', code: 404 });
      return stored;
    },
    patch: async (_name: unknown, patch: { status?: unknown; metadata?: { ownerReferences?: unknown } }) =>
      (stored = {
        ...stored!,
        metadata: { ...stored!.metadata, ...(patch.metadata?.ownerReferences ? { ownerReferences: patch.metadata.ownerReferences } : {}), resourceVersion: String(++version) },
        ...(patch.status ? { status: patch.status } : {}),
      } as KubeObject),
  } as unknown as ResourceClient<KubeObject>;
  // A lagging cache has not seen the create, or has seen it but not the status write.
  const cached = () => ({ current: stored, 'before-status': asCreated, 'before-create': undefined })[options.cache ?? 'current'];
  const provisioner = {
    firmwareComponents: async () => {
      reads++;
      return COMPONENTS;
    },
    firmwareRefreshes: () => refreshes,
  } as unknown as Provisioner;
  const reconciler = new HostFirmwareComponentsReconciler({
    hosts: { get: () => current },
    components: { client, cache: { get: cached } },
    provisioner,
    events: { event: async () => {} } as unknown as EventRecorder,
    clock: new FakeClock(),
  });
  /** The host now, the provisioner's count, and whether the pass read Ironic. */
  const pass = async (next: KubeObject, count: FirmwareRefreshes = refreshes): Promise<boolean> => {
    current = next;
    refreshes = count;
    const before = reads;
    await reconciler.reconcile(NAME, { log: silentLogger(), signal: new AbortController().signal, reconcileID: 'r', controller: 'hostfirmwarecomponents' });
    return reads > before;
  };
  return { pass, client, stored: () => stored, gets: () => gets };
}

describe('HostFirmwareComponents reads', () => {
  it('reads once inspection has refreshed the components and after each manual cleaning or servicing, not on the other state changes', async () => {
    const run = setUp();
    // Verify refreshed both copies, but inspection is under way: its copy is the one to read.
    expect(await run.pass(host('inspecting'), { bios: 1, firmware: 1, pending: ['firmware'] })).toBe(false);
    expect(run.stored()).toBeUndefined();
    // Inspection ended: the first read creates the resource.
    expect(await run.pass(host('preparing'), { bios: 1, firmware: 2 })).toBe(true);
    expect((run.stored()?.status as { components?: unknown }).components).toEqual(COMPONENTS);
    // Preparing with nothing to apply, then provisioning: its automated cleaning runs no firmware step.
    expect(await run.pass(host('available'))).toBe(false);
    expect(await run.pass(host('provisioning'))).toBe(false);
    expect(await run.pass(host('provisioned'))).toBe(false);
    // Servicing starts, then ends with a refresh.
    expect(await run.pass(host('provisioned', { operationalStatus: 'servicing' }), { bios: 1, firmware: 2, pending: ['bios', 'firmware'] })).toBe(false);
    expect(await run.pass(host('provisioned'), { bios: 4, firmware: 4 })).toBe(true);
    // Deprovisioning: automated cleaning again, no read.
    expect(await run.pass(host('deprovisioning'))).toBe(false);
    expect(await run.pass(host('available'))).toBe(false);
  });

  it('without a count (another process asked Ironic, e.g. before a restart) reads on every node or state change', async () => {
    const run = setUp();
    expect(await run.pass(host('preparing'), {})).toBe(true);
    expect(await run.pass(host('preparing'), {})).toBe(false);
    expect(await run.pass(host('available'), {})).toBe(true);
  });

  it.each(['before-status', 'before-create'] as const)(
    'does not read again, nor ask the API server, while the cache lags its own writes (%s)',
    async (cache) => {
      const run = setUp({ cache });
      expect(await run.pass(host('inspecting'), { firmware: 1 })).toBe(true);
      expect(await run.pass(host('inspecting'), { firmware: 1 })).toBe(false);
      expect(run.gets()).toBe(0);
      expect(run.stored()?.status).toMatchObject({ components: COMPONENTS });
    },
  );

  it('owns what it creates and what a user made before, with a plain owner reference as BMO\'s', async () => {
    const plainOwner = [{ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'host-0', uid: 'host-uid' }];
    const created = setUp();
    await created.pass(host('preparing'), { firmware: 1 });
    expect(created.stored()?.metadata.ownerReferences).toEqual(plainOwner);
    const userMade = setUp();
    const updates = [{ component: 'bios', url: 'http://127.0.0.1/bios.bin' }];
    await userMade.client.create({ apiVersion: 'metal3.io/v1alpha1', kind: 'HostFirmwareComponents', metadata: { ...NAME }, spec: { updates } });
    await userMade.pass(host('preparing'), { firmware: 1 });
    expect(userMade.stored()).toMatchObject({ metadata: { ownerReferences: plainOwner }, spec: { updates } });
  });
});
