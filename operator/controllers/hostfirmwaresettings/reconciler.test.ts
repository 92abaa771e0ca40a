import { describe, expect, it } from '@jest/globals';
import type { FirmwareRefreshes, FirmwareSettingsReading, Provisioner } from '../../provisioner/provisioner.ts';
import type { EventRecorder } from '../../runtime/event-recorder.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import { silentLogger } from '../../runtime/logger.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { FakeClock } from '../../runtime/testing/fake-clock.ts';
import { HostFirmwareSettingsReconciler } from './reconciler.ts';
import { FirmwareSchemaStore } from './schema-store.ts';

const NAME = { namespace: 'test', name: 'host-0' };
const READING: FirmwareSettingsReading = { settings: { ProcTurboMode: 'Enabled' }, schema: { ProcTurboMode: { attribute_type: 'Enumeration', allowable_values: ['Enabled', 'Disabled'] } } };

const host = (state: string, vendor?: string): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
  metadata: { ...NAME, uid: 'host-uid' },
  spec: { online: true },
  status: { operationalStatus: 'OK', provisioning: { ID: 'node-1', state }, ...(vendor ? { hardware: { systemVendor: { manufacturer: vendor, productName: 'M1' } } } : {}) },
});

/**
 * An in-memory store of one kind, as the API server and its cache: up to date, or lagging with
 * every object as it was created. Counts the API server's GETs.
 */
function objects(options: { cacheLags?: boolean } = {}) {
  const stored = new Map<string, KubeObject>();
  const asCreated = new Map<string, KubeObject>();
  let version = 0;
  let gets = 0;
  const key = (name: ObjectName) => `${name.namespace}/${name.name}`;
  const notFound = () => Object.assign(new Error('not found'), { status: 404, reason: 'NotFound', code: 404 });
  const versioned = (object: KubeObject): KubeObject => ({ ...object, metadata: { ...object.metadata, resourceVersion: String(++version) } });
  const client = {
    create: async (object: KubeObject) => {
      const created = versioned({ ...object, metadata: { ...object.metadata, uid: `uid-${stored.size}` } });
      stored.set(key(object.metadata as ObjectName), created);
      asCreated.set(key(object.metadata as ObjectName), created);
      return created;
    },
    replace: async (object: KubeObject) => {
      stored.set(key(object.metadata as ObjectName), versioned(object));
      return stored.get(key(object.metadata as ObjectName));
    },
    get: async (name: ObjectName) => {
      gets++;
      return stored.get(key(name)) ?? Promise.reject(notFound());
    },
    patch: async (name: ObjectName, patch: { status?: Record<string, unknown>; metadata?: { ownerReferences?: unknown } }) => {
      const current = stored.get(key(name))!;
      const metadata = patch.metadata?.ownerReferences ? { ...current.metadata, ownerReferences: patch.metadata.ownerReferences } : current.metadata;
      const object = versioned({ ...current, metadata, status: { ...(current.status as object), ...patch.status } } as KubeObject);
      stored.set(key(name), object);
      return object;
    },
  } as unknown as ResourceClient<KubeObject>;
  const cache = { get: (name: ObjectName) => (options.cacheLags ? asCreated : stored).get(key(name)) };
  return { client, cache, all: () => [...stored.values()], gets: () => gets };
}

function setUp(options: { cacheLags?: boolean } = {}) {
  let current = host('inspecting');
  let refreshes: FirmwareRefreshes = {};
  let reads = 0;
  const settings = objects(options);
  const schemas = objects();
  const provisioner = {
    firmwareSettings: async () => {
      reads++;
      return READING;
    },
    firmwareRefreshes: () => refreshes,
  } as unknown as Provisioner;
  const reconciler = new HostFirmwareSettingsReconciler({
    hosts: { get: () => current },
    settings,
    schemas: new FirmwareSchemaStore(schemas),
    provisioner,
    events: { event: async () => {} } as unknown as EventRecorder,
    clock: new FakeClock(),
  });
  const pass = async (next: KubeObject, count: FirmwareRefreshes = refreshes): Promise<boolean> => {
    current = next;
    refreshes = count;
    const before = reads;
    await reconciler.reconcile(NAME, { log: silentLogger(), signal: new AbortController().signal, reconcileID: 'r', controller: 'hostfirmwaresettings' });
    return reads > before;
  };
  return { pass, settings, schemas };
}

describe('HostFirmwareSettings reads', () => {
  it('reads the BIOS after registration and after manual cleaning, not after inspection, a preparing that applied nothing or automated cleaning', async () => {
    const run = setUp();
    expect(await run.pass(host('inspecting'), { bios: 1, firmware: 1, pending: ['firmware'] })).toBe(true);
    expect(run.settings.all()[0]?.status).toMatchObject({ settings: { ProcTurboMode: 'Enabled' } });
    // Inspection caches the firmware components only.
    expect(await run.pass(host('preparing', 'Vendor'), { bios: 1, firmware: 2 })).toBe(false);
    // A manual cleaning under way (settings being applied): nothing until it ends.
    expect(await run.pass(host('available', 'Vendor'), { bios: 1, firmware: 2, pending: ['bios', 'firmware'] })).toBe(false);
    expect(await run.pass(host('available', 'Vendor'), { bios: 3, firmware: 3 })).toBe(true);
    // provide's automated cleaning before the deploy and the one after it change no setting.
    expect(await run.pass(host('provisioned', 'Vendor'))).toBe(false);
    expect(await run.pass(host('deprovisioning', 'Vendor'))).toBe(false);
    expect(await run.pass(host('available', 'Vendor'))).toBe(false);
  });

  it('fills in the schema\'s vendor and model from the inspected host without reading the BIOS', async () => {
    const run = setUp();
    await run.pass(host('inspecting'), { bios: 1 });
    expect(run.schemas.all()[0]?.spec).not.toHaveProperty('hardwareVendor');
    expect(await run.pass(host('preparing', 'Vendor'))).toBe(false);
    expect(run.schemas.all()[0]?.spec).toMatchObject({ hardwareVendor: 'Vendor', hardwareModel: 'M1' });
  });

  it('does not read again, nor ask the API server, while the cache lags its own status write', async () => {
    const run = setUp({ cacheLags: true });
    expect(await run.pass(host('inspecting'), { bios: 1 })).toBe(true);
    expect(await run.pass(host('preparing', 'Vendor'), { bios: 1 })).toBe(false);
    expect(run.settings.gets()).toBe(0);
    expect(run.settings.all()[0]?.status).toMatchObject({ settings: { ProcTurboMode: 'Enabled' } });
  });

  it('owns what it creates and what a user made before, with a plain owner reference as BMO\'s', async () => {
    const plainOwner = [{ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'host-0', uid: 'host-uid' }];
    const created = setUp();
    await created.pass(host('available'));
    expect(created.settings.all()[0]?.metadata.ownerReferences).toEqual(plainOwner);
    const userMade = setUp();
    await userMade.settings.client.create({ apiVersion: 'metal3.io/v1alpha1', kind: 'HostFirmwareSettings', metadata: { ...NAME }, spec: { settings: { ProcTurboMode: 'Disabled' } } });
    await userMade.pass(host('available'));
    expect(userMade.settings.all()).toHaveLength(1);
    expect(userMade.settings.all()[0]).toMatchObject({ metadata: { ownerReferences: plainOwner }, spec: { settings: { ProcTurboMode: 'Disabled' } } });
  });
});
