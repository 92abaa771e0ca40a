// FirmwareSchemas: one per BIOS registry, named by its hash and shared by the hosts that have it.
// Every HostFirmwareSettings that uses one is among its owners (as in BMO), so with identical
// hardware one schema has an owner per host. Each write sends the whole owner list, so writing
// one owner at a time would cost O(N^2) bytes: owners that arrive while a write is under way go
// in the next write together, built from our last write rather than a cache that may lag it. A
// host only adding itself as an owner does not wait for that write (with a few workers, waiting
// would leave a batch of one or two): it has the schema it needs, and an owner lost to a failed
// write is added again on its next settings read. Writes of one schema are also spaced by its
// owner count (1 ms an owner, at most 10 s): with 10,000 hosts registering, writing as soon as the
// last write returned sent ~1,700 schemas of up to 3 MB, each coming back in the response and the
// watch; spaced, batches grow with the list and the bytes written grow linearly with hosts.
// Hosts of one model finish inspection one by one over a minute or more, so an owner-only write
// also waits a few seconds for the owners after its first: one write per host otherwise (BMO's
// count). If the schema's last recorded owner goes meanwhile, the garbage collector deletes it;
// the gathered owners then make it again, as the first of them would have.
import type { FirmwareSchema, SettingSchema } from '../../api/firmwareschema.ts';
import { FirmwareSchemaResource, firmwareSchemaName, firmwareSchemaSchema } from '../../api/firmwareschema.ts';
import { METAL3_API_VERSION } from '../../api/group-version.ts';
import type { Clock } from '../../runtime/clock.ts';
import { sleep, systemClock } from '../../runtime/clock.ts';
import type { Informer } from '../../runtime/informer.ts';
import type { Logger } from '../../runtime/logger.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../../runtime/kube-errors.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import { keyOf } from '../../runtime/kube-object.ts';
import { setOwnerReference } from '../../runtime/object-references.ts';
import { RecentWrites } from '../../runtime/recent-writes.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { safeParseCached } from '../../runtime/parse-cached.ts';

export interface SchemaFor {
  namespace: string;
  /** The HostFirmwareSettings that uses it: an owner, so the schema goes with its last user. */
  owner: KubeObject;
  schema: Record<string, SettingSchema>;
  vendor?: string | undefined;
  model?: string | undefined;
}

/** BMO leaves Password settings out of the schema, by name and by type. */
function withoutPasswords(schema: Record<string, SettingSchema>): Record<string, SettingSchema> {
  return Object.fromEntries(Object.entries(schema).filter(([name, entry]) => !name.includes('Password') && entry.attribute_type !== 'Password'));
}

/** What the host knows of its hardware that the schema does not say yet. */
function missingHardware(spec: FirmwareSchema['spec'], known: { vendor?: string | undefined; model?: string | undefined }): Partial<FirmwareSchema['spec']> {
  return {
    ...(!spec.hardwareVendor && known.vendor ? { hardwareVendor: known.vendor } : {}),
    ...(!spec.hardwareModel && known.model ? { hardwareModel: known.model } : {}),
  };
}

/** What the next write of one schema adds, and who waits for it. */
interface PendingWrite {
  /** When the first owner of this write arrived: owner-only writes gather from then. */
  openedAtMs: number;
  /** Aborted when someone starts waiting for the write, which then stops gathering. */
  hurry: AbortController;
  owners: KubeObject[];
  /** The schema as the owners saw it, to make it again if it goes before they are written. */
  spec?: FirmwareSchema['spec'];
  hardware: { vendor?: string | undefined; model?: string | undefined };
  waiters: { resolve: (schema: FirmwareSchema) => void; reject: (error: unknown) => void }[];
}

/** What a host adds to a schema's next write. */
interface QueuedChange {
  owner?: KubeObject;
  spec?: FirmwareSchema['spec'];
  hardware: PendingWrite['hardware'];
}

/** A write that lost a race with another writer is retried from a fresh read this many times. */
const CONFLICT_ATTEMPTS = 3;

/** The least time from one write of a schema to the next, per owner the first left it with. */
const SPACING_PER_OWNER_MS = 1;
const MAX_SPACING_MS = 10_000;

/** How long an owner-only write gathers the owners arriving after its first. */
export const OWNER_GATHER_MS = 5_000;

export class FirmwareSchemaStore {
  readonly #client: ResourceClient<KubeObject>;
  readonly #cache: Pick<Informer<KubeObject>, 'get'>;
  readonly #recent: RecentWrites<KubeObject>;
  /** Per schema (namespace/name): what waits for the next write. */
  readonly #pending = new Map<string, PendingWrite>();
  /** Schemas with a write under way, and the drain doing it. */
  readonly #writing = new Map<string, Promise<void>>();
  /** Per schema: when its next write may start. One entry per schema written, not per host. */
  readonly #nextWriteAtMs = new Map<string, number>();
  readonly #clock: Clock;
  readonly #log: Logger | undefined;

  constructor(options: {
    client: ResourceClient<KubeObject>;
    cache: Pick<Informer<KubeObject>, 'get'> & Partial<Pick<Informer<KubeObject>, 'addHandler'>>;
    clock?: Clock;
    log?: Logger;
  }) {
    this.#client = options.client;
    this.#cache = options.cache;
    this.#recent = new RecentWrites({ cache: options.cache });
    this.#clock = options.clock ?? systemClock;
    this.#log = options.log;
  }

  /** Resolves once no write is queued or under way. */
  async written(): Promise<void> {
    while (this.#writing.size > 0) await Promise.all(this.#writing.values());
  }

  /** The schema as of our last write or the cache, whichever is newer, if it exists and parses. */
  get(name: ObjectName): FirmwareSchema | undefined {
    const parsed = safeParseCached(firmwareSchemaSchema, this.#recent.freshest(keyOf(name), this.#cache.get(name)));
    return parsed.success ? parsed.data : undefined;
  }

  /** BMO's getOrCreateFirmwareSchema: the shared schema, with `owner` among its owners. */
  async ensure(request: SchemaFor): Promise<FirmwareSchema> {
    const name = { namespace: request.namespace, name: firmwareSchemaName(request.schema) };
    const existing = this.get(name) ?? (await this.#fetch(name));
    if (existing) {
      // A schema made before inspection has no vendor or model yet: the first host that knows them fills them in.
      const owned = existing.metadata.ownerReferences?.some((ref) => ref.uid === request.owner.metadata.uid);
      const hardwareMissing = Object.keys(missingHardware(existing.spec, request)).length > 0;
      if (owned && !hardwareMissing) return existing;
      if (!hardwareMissing) {
        this.#queue(name, { owner: request.owner, spec: existing.spec, hardware: {} });
        return existing;
      }
      return this.#update(name, { owner: request.owner, spec: existing.spec, hardware: request });
    }
    const spec = {
      ...(request.vendor ? { hardwareVendor: request.vendor } : {}),
      ...(request.model ? { hardwareModel: request.model } : {}),
      schema: withoutPasswords(request.schema),
    };
    try {
      return await this.#create(name, spec, [request.owner]);
    } catch (error) {
      // Another host with the same hardware created it first.
      if (isAlreadyExists(error)) return this.ensure(request);
      throw error;
    }
  }

  /** Like ensure's fill-in, for a host whose settings were not read again since its inspection. */
  async fillHardware(name: ObjectName, known: { vendor?: string | undefined; model?: string | undefined }): Promise<FirmwareSchema | undefined> {
    const existing = this.get(name);
    if (!existing) return undefined;
    if (Object.keys(missingHardware(existing.spec, known)).length === 0) return existing;
    return this.#update(name, { hardware: known });
  }

  async #create(name: ObjectName, spec: FirmwareSchema['spec'], owners: KubeObject[]): Promise<FirmwareSchema> {
    const fresh: FirmwareSchema = { apiVersion: METAL3_API_VERSION, kind: FirmwareSchemaResource.kind, metadata: { ...name }, spec };
    const written = await this.#client.create(owners.reduce((schema, owner) => setOwnerReference(schema, owner), fresh));
    this.#recent.rememberCreated(keyOf(name), written);
    return firmwareSchemaSchema.parse(written);
  }

  /** Adds the owner and hardware to the schema's next write and resolves once it is written. */
  #update(name: ObjectName, change: QueuedChange): Promise<FirmwareSchema> {
    return new Promise<FirmwareSchema>((resolve, reject) => {
      const pending = this.#queue(name, change);
      pending.waiters.push({ resolve, reject });
      pending.hurry.abort();
    });
  }

  /** Adds the owner and hardware to the schema's next write, starting one unless one is under way. */
  #queue(name: ObjectName, change: QueuedChange): PendingWrite {
    const key = keyOf(name);
    const pending = this.#pending.get(key) ?? { openedAtMs: this.#clock.now(), hurry: new AbortController(), owners: [], hardware: {}, waiters: [] };
    this.#pending.set(key, pending);
    if (change.owner) pending.owners.push(change.owner);
    pending.spec ??= change.spec;
    pending.hardware = { vendor: pending.hardware.vendor ?? change.hardware.vendor, model: pending.hardware.model ?? change.hardware.model };
    if (!this.#writing.has(key)) this.#writing.set(key, this.#drain(name));
    return pending;
  }

  /** One write at a time per schema, each taking everything that arrived while the last was under way. */
  async #drain(name: ObjectName): Promise<void> {
    const key = keyOf(name);
    // Queued by the caller's synchronous code: start after it, so a batch can gather.
    await Promise.resolve();
    try {
      for (let pending = this.#pending.get(key); pending; pending = this.#pending.get(key)) {
        // Owners that arrive during the pause join this write.
        const pauseMs = (this.#nextWriteAtMs.get(key) ?? 0) - this.#clock.now();
        if (pauseMs > 0) await sleep(this.#clock, pauseMs);
        const gatherMs = pending.openedAtMs + OWNER_GATHER_MS - this.#clock.now();
        if (gatherMs > 0) await sleep(this.#clock, gatherMs, pending.hurry.signal);
        this.#pending.delete(key);
        const startedMs = this.#clock.now();
        try {
          const written = await this.#write(name, pending);
          const owners = written.metadata.ownerReferences?.length ?? 0;
          this.#nextWriteAtMs.set(key, startedMs + Math.min(MAX_SPACING_MS, owners * SPACING_PER_OWNER_MS));
          for (const waiter of pending.waiters) waiter.resolve(written);
        } catch (error) {
          for (const waiter of pending.waiters) waiter.reject(error);
          // Owners that did not wait are not told by anyone else.
          if (pending.owners.length > 0) {
            this.#log?.error('could not add owners to the FirmwareSchema; each is added again on its next settings read', {
              schema: key,
              owners: pending.owners.map((owner) => owner.metadata.name),
              reason: error instanceof Error ? error.message : String(error),
            });
          }
        }
      }
    } finally {
      this.#writing.delete(key);
    }
  }

  async #write(name: ObjectName, pending: PendingWrite): Promise<FirmwareSchema> {
    let base = this.get(name) ?? (await this.#fetch(name));
    for (let attempt = 1; ; attempt++) {
      if (!base) {
        // Gone since (its last recorded owner deleted): owners waiting make it again; a fill-in alone has no owner to keep it.
        if (pending.owners.length === 0 || !pending.spec) throw new Error(`FirmwareSchema ${keyOf(name)} no longer exists`);
        const spec = { ...pending.spec, ...missingHardware(pending.spec, pending.hardware) };
        try {
          return await this.#create(name, spec, pending.owners);
        } catch (error) {
          if (!isAlreadyExists(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
          base = await this.#fetch(name);
          continue;
        }
      }
      const owned = new Set(base.metadata.ownerReferences?.map((ref) => ref.uid));
      const newOwners = pending.owners.filter((owner) => !owned.has(owner.metadata.uid ?? ''));
      const hardware = missingHardware(base.spec, pending.hardware);
      if (newOwners.length === 0 && Object.keys(hardware).length === 0) return base;
      const withOwners = newOwners.reduce((schema, owner) => setOwnerReference(schema, owner), base);
      const updated = { ...withOwners, spec: { ...base.spec, ...hardware } };
      try {
        const written = await this.#client.replace(updated);
        this.#recent.remember(keyOf(name), base.metadata.resourceVersion, written);
        return firmwareSchemaSchema.parse(written);
      } catch (error) {
        // Someone else wrote it (a user, another replica before it lost the lease) or it is gone: start from the server's.
        if (!(isConflict(error) || isNotFound(error)) || attempt >= CONFLICT_ATTEMPTS) throw error;
        base = await this.#fetch(name);
      }
    }
  }

  async #fetch(name: ObjectName): Promise<FirmwareSchema | undefined> {
    try {
      return firmwareSchemaSchema.parse(await this.#client.get(name));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}
