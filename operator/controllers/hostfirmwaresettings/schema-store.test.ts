import { describe, expect, it } from '@jest/globals';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { FakeClock, flushPromises } from '../../runtime/testing/index.ts';
import { FirmwareSchemaStore, OWNER_GATHER_MS } from './schema-store.ts';

const SCHEMA = { ProcTurboMode: { attribute_type: 'Enumeration' as const, allowable_values: ['Enabled', 'Disabled'] } };
const NAMESPACE = 'test';

const settingsOf = (n: number): KubeObject => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'HostFirmwareSettings', metadata: { namespace: NAMESPACE, name: `host-${n}`, uid: `uid-${n}` },
});

/** Lets every queued write happen, however long it gathers or is spaced. */
async function settle(store: FirmwareSchemaStore, clock: FakeClock): Promise<void> {
  const written = store.written();
  await clock.advance(OWNER_GATHER_MS + 10_000);
  await written;
}

/**
 * One FirmwareSchema as the API server holds it (a replace must carry its resourceVersion, as a
 * PUT does) and a cache that only ever shows it as created, as a cache far behind would.
 */
function apiServer() {
  let stored: KubeObject | undefined;
  let asCreated: KubeObject | undefined;
  let version = 0;
  const calls = { replace: 0, conflicts: 0, get: 0 };
  const conflict = () => Object.assign(new Error('conflict'), { status: 409, reason: 'Conflict', code: 409 });
  const notFound = () => Object.assign(new Error('not found'), { status: 404, reason: 'NotFound', code: 404 });
  const client = {
    create: async (object: KubeObject) => {
      if (stored) throw Object.assign(new Error('exists'), { status: 409, reason: 'AlreadyExists', code: 409 });
      asCreated = stored = { ...object, metadata: { ...object.metadata, resourceVersion: String(++version) } };
      return stored;
    },
    replace: async (object: KubeObject) => {
      calls.replace++;
      // Yield first, so writes overlap the way requests to a server do.
      await new Promise((resolve) => setImmediate(resolve));
      if (!stored) throw notFound();
      if (object.metadata.resourceVersion !== stored?.metadata.resourceVersion) {
        calls.conflicts++;
        throw conflict();
      }
      stored = { ...object, metadata: { ...object.metadata, resourceVersion: String(++version) } };
      return stored;
    },
    get: async () => {
      calls.get++;
      return stored ?? Promise.reject(notFound());
    },
  } as unknown as ResourceClient<KubeObject>;
  return {
    client,
    cache: { get: (_name: ObjectName) => asCreated },
    calls,
    owners: () => stored?.metadata.ownerReferences?.map((ref) => ref.uid) ?? [],
    stored: () => stored,
    /** The garbage collector deletes it, its last recorded owner gone. */
    collect: () => {
      stored = undefined;
    },
    /** Another writer changes the schema behind our back. */
    touch: () => {
      stored = { ...stored!, metadata: { ...stored!.metadata, labels: { touched: 'yes' }, resourceVersion: String(++version) } };
    },
  };
}

describe('FirmwareSchemaStore with many hosts of the same hardware', () => {
  it('adds owners that arrive together in few writes, from its own last write, with no conflict', async () => {
    const server = apiServer();
    const clock = new FakeClock();
    const store = new FirmwareSchemaStore({ ...server, clock });
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(0), schema: SCHEMA });

    const schemas = await Promise.all(Array.from({ length: 20 }, (_, n) => store.ensure({ namespace: NAMESPACE, owner: settingsOf(n + 1), schema: SCHEMA })));
    await settle(store, clock);

    expect(server.owners()).toHaveLength(21);
    expect(new Set(server.owners()).size).toBe(21);
    expect(server.calls.replace).toBeLessThanOrEqual(2);
    expect(server.calls.conflicts).toBe(0);
    // Each caller gets the schema at once, whether or not its own owner reference is written yet.
    schemas.forEach((schema) => expect(schema.metadata.name).toBe(schemas[0]!.metadata.name));
    // Later owners, one at a time, still build on the last write, not on the lagging cache.
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(30), schema: SCHEMA });
    await settle(store, clock);
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(31), schema: SCHEMA });
    await settle(store, clock);
    expect(server.owners()).toHaveLength(23);
    expect(server.calls.conflicts).toBe(0);
  });

  it('does not make a host wait for its owner reference, so owners arriving one after another share writes', async () => {
    // Two workers each awaiting their own write would leave batches of one or two.
    const server = apiServer();
    const clock = new FakeClock();
    const store = new FirmwareSchemaStore({ ...server, clock });
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(0), schema: SCHEMA });
    for (let n = 1; n <= 50; n++) await store.ensure({ namespace: NAMESPACE, owner: settingsOf(n), schema: SCHEMA });
    await settle(store, clock);

    expect(new Set(server.owners()).size).toBe(51);
    expect(server.calls.replace).toBeLessThanOrEqual(2);
    expect(server.calls.conflicts).toBe(0);
  });

  it('logs a failed owner write and adds the owner again on its next ensure', async () => {
    const server = apiServer();
    const logged: Array<{ message: string; meta: unknown }> = [];
    const log = { error: (message: string, meta: unknown) => logged.push({ message, meta }) } as unknown as Logger;
    const clock = new FakeClock();
    const store = new FirmwareSchemaStore({ ...server, log, clock });
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(0), schema: SCHEMA });
    const replace = server.client.replace.bind(server.client);
    server.client.replace = async () => Promise.reject(Object.assign(new Error('etcdserver: request timed out'), { status: 500, code: 500 }));

    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(1), schema: SCHEMA });
    await settle(store, clock);
    expect(server.owners()).toEqual(['uid-0']);
    expect(logged).toEqual([{ message: expect.stringContaining('could not add owners'), meta: expect.objectContaining({ owners: ['host-1'], reason: 'etcdserver: request timed out' }) }]);

    server.client.replace = replace;
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(1), schema: SCHEMA });
    await settle(store, clock);
    expect(server.owners()).toEqual(['uid-0', 'uid-1']);
  });

  it('starts again from the API server\'s copy when someone else wrote the schema meanwhile', async () => {
    const server = apiServer();
    const clock = new FakeClock();
    const store = new FirmwareSchemaStore({ ...server, clock });
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(0), schema: SCHEMA });
    server.touch();

    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(1), schema: SCHEMA });
    await settle(store, clock);

    expect(server.owners()).toEqual(['uid-0', 'uid-1']);
    expect(server.calls.conflicts).toBe(1);
  });

  it('gathers the owners of hosts that finish inspection one by one into a write every few seconds', async () => {
    const server = apiServer();
    const clock = new FakeClock();
    const store = new FirmwareSchemaStore({ ...server, clock });
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(0), schema: SCHEMA });

    // Two workers reading settings at N = 100: a host every 400 ms or so.
    for (let n = 1; n <= 30; n++) {
      await store.ensure({ namespace: NAMESPACE, owner: settingsOf(n), schema: SCHEMA });
      await clock.advance(400);
      // Nothing is written before the first owner has waited its few seconds.
      if (n * 400 < OWNER_GATHER_MS) expect(server.calls.replace).toBe(0);
    }
    await settle(store, clock);

    expect(new Set(server.owners()).size).toBe(31);
    expect(server.calls.replace).toBe(Math.ceil((30 * 400) / OWNER_GATHER_MS));
    expect(server.calls.conflicts).toBe(0);
  });

  it('stops gathering when a host waits for the write, which takes the owners gathered so far', async () => {
    const server = apiServer();
    const clock = new FakeClock();
    const store = new FirmwareSchemaStore({ ...server, clock });
    // Made before inspection: no vendor or model yet.
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(0), schema: SCHEMA });
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(1), schema: SCHEMA });
    await clock.advance(100);

    let filled: unknown;
    void store.fillHardware({ namespace: NAMESPACE, name: server.stored()!.metadata.name! }, { vendor: 'Vendor', model: 'M1' }).then((schema) => (filled = schema));
    // No time passes: the write goes out at once.
    await flushPromises();

    expect(filled).toMatchObject({ spec: { hardwareVendor: 'Vendor', hardwareModel: 'M1' } });
    expect(server.calls.replace).toBe(1);
    expect(server.owners()).toEqual(['uid-0', 'uid-1']);
  });

  it('makes the schema again, owned by the gathered hosts, when its last recorded owner went while they gathered', async () => {
    const server = apiServer();
    const clock = new FakeClock();
    const store = new FirmwareSchemaStore({ ...server, clock });
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(0), schema: SCHEMA, vendor: 'Vendor', model: 'M1' });
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(1), schema: SCHEMA });
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(2), schema: SCHEMA });
    // Host 0 deleted: its settings go, and the schema with them. The cache has not seen it yet.
    server.collect();

    await settle(store, clock);

    expect(server.owners()).toEqual(['uid-1', 'uid-2']);
    expect(server.stored()).toMatchObject({ spec: { hardwareVendor: 'Vendor', hardwareModel: 'M1', schema: SCHEMA } });
  });

  it('spaces the writes of a schema by its owner count, so that the owners arriving meanwhile share one write', async () => {
    const server = apiServer();
    const clock = new FakeClock();
    const store = new FirmwareSchemaStore({ ...server, clock });
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(0), schema: SCHEMA });
    await Promise.all(Array.from({ length: 7999 }, (_, n) => store.ensure({ namespace: NAMESPACE, owner: settingsOf(n + 1), schema: SCHEMA })));
    await clock.advance(OWNER_GATHER_MS);
    expect(server.calls.replace).toBe(1);
    expect(server.owners()).toHaveLength(8000);

    // 8000 owners: the next write waits 8 s from the start of the last, longer than it gathers.
    for (let n = 8000; n < 8010; n++) {
      await store.ensure({ namespace: NAMESPACE, owner: settingsOf(n), schema: SCHEMA });
      await clock.advance(700);
    }
    expect(server.calls.replace).toBe(1);
    await clock.advance(1_000);
    expect(server.calls.replace).toBe(2);
    expect(server.owners()).toHaveLength(8010);
    expect(server.calls.conflicts).toBe(0);
  });

  it('writes nothing for an owner it already has', async () => {
    const server = apiServer();
    const clock = new FakeClock();
    const store = new FirmwareSchemaStore({ ...server, clock });
    await store.ensure({ namespace: NAMESPACE, owner: settingsOf(0), schema: SCHEMA });
    await Promise.all([1, 1, 1].map((n) => store.ensure({ namespace: NAMESPACE, owner: settingsOf(n), schema: SCHEMA })));
    await settle(store, clock);

    expect(server.owners()).toEqual(['uid-0', 'uid-1']);
    expect(server.calls.replace).toBe(1);
  });
});
