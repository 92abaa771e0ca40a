import { HARDWARE_DATA_FINALIZER } from '../../api/finalizers.ts';
import { METAL3_API_VERSION } from '../../api/group-version.ts';
import type { HardwareDetails } from '../../api/hardware-details.ts';
import { hardwareDataSchema } from '../../api/hardwaredata.ts';
import type { HardwareData } from '../../api/hardwaredata.ts';
import { hasFinalizer, removeFinalizer } from '../../runtime/finalizers.ts';
import type { Informer } from '../../runtime/informer.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../../runtime/kube-errors.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import { keyOf } from '../../runtime/kube-object.ts';
import { OwnWrites } from '../../runtime/own-writes.ts';
import type { Predicate } from '../../runtime/predicates.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { safeParseCached } from '../../runtime/parse-cached.ts';

/** The host a HardwareData belongs to; it shares the host's name and namespace. */
export interface HardwareDataOwner {
  namespace: string;
  name: string;
  uid: string;
}

/** What the controller needs of HardwareData; HardwareDataStore is the Kubernetes implementation. */
export interface HardwareDataAccess {
  get(name: ObjectName): HardwareData | undefined;
  holds(name: ObjectName): boolean;
  replace(owner: HardwareDataOwner, hardware: HardwareDetails): Promise<void>;
  release(name: ObjectName): Promise<void>;
}

/**
 * HardwareData objects: read from the cache, replaced after each inspection (controller
 * owner reference to the host, finalizer so they outlive a host being deleted only until
 * the controller lets go).
 */
/** The host's HardwareData: ours (finalizer, controller reference), keeping what `existing` has of others'. */
function hardwareDataFor(owner: HardwareDataOwner, hardware: HardwareDetails, existing: KubeObject | undefined): KubeObject {
  const metadata = {
    ...(existing?.metadata ?? {}),
    name: owner.name,
    namespace: owner.namespace,
    finalizers: [...new Set([...(existing?.metadata.finalizers ?? []), HARDWARE_DATA_FINALIZER])],
    ownerReferences: [
      ...(existing?.metadata.ownerReferences ?? []).filter((ref) => ref.uid !== owner.uid && ref.controller !== true),
      { apiVersion: METAL3_API_VERSION, kind: 'BareMetalHost', name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true },
    ],
  };
  return { metadata, spec: { hardware } };
}

export class HardwareDataStore implements HardwareDataAccess {
  readonly #client: ResourceClient<KubeObject>;
  readonly #cache: Informer<KubeObject>;
  /**
   * Events of HardwareData as this store wrote it wake no host: the pass that wrote it already
   * put the same hardware into the host's status.
   */
  readonly #ownWrites: OwnWrites;

  /** `wakeHost` takes a HardwareData whose event must still reach its host (see OwnWrites). */
  constructor(options: { client: ResourceClient<KubeObject>; cache: Informer<KubeObject>; wakeHost: (hardwareData: KubeObject) => void }) {
    this.#client = options.client;
    this.#cache = options.cache;
    this.#ownWrites = new OwnWrites({ cache: options.cache, redeliver: options.wakeHost });
  }

  get notOwnWrites(): Predicate {
    return this.#ownWrites.filter;
  }

  /** The cached HardwareData, if any and if it parses. */
  get(name: ObjectName): HardwareData | undefined {
    const cached = this.#cache.get(name);
    if (!cached) return undefined;
    const parsed = safeParseCached(hardwareDataSchema, cached);
    return parsed.success ? parsed.data : undefined;
  }

  /** Creates the host's HardwareData, or replaces an existing one wholesale. */
  async replace(owner: HardwareDataOwner, hardware: HardwareDetails): Promise<void> {
    const name = { namespace: owner.namespace, name: owner.name };
    // Nothing cached (a first inspection): create without reading first; one that exists after
    // all (the cache lagging) is read and replaced.
    if (!this.#cache.get(name)) {
      try {
        await this.#ownWrites.write(keyOf(name), () => this.#client.create(hardwareDataFor(owner, hardware, undefined)));
        return;
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
    }
    let existing = await this.#fetch(name);
    if (existing?.metadata.deletionTimestamp) {
      // Someone deleted it: let that finish, then create a fresh one.
      await removeFinalizer(this.#client, existing, HARDWARE_DATA_FINALIZER);
      existing = undefined;
    }
    const object = hardwareDataFor(owner, hardware, existing);
    await this.#ownWrites.write(keyOf(name), () => (existing ? this.#client.replace(object) : this.#client.create(object)));
  }

  /**
   * Lets a deleted host's HardwareData go. Only this store adds the finalizer, so once the cache
   * has seen this store's writes to it, the cached copy says whether it is there, and the removal
   * (guarded by a test of the list) needs no read first, as BMO's cached read. Otherwise, or when
   * the list changed since the cache saw it, it is read fresh.
   */
  async release(name: ObjectName): Promise<void> {
    const key = keyOf(name);
    if (this.#ownWrites.settled(key)) {
      const cached = this.#cache.get(name);
      if (!cached || !hasFinalizer(cached, HARDWARE_DATA_FINALIZER)) return;
      try {
        await this.#letGo(key, cached);
        return;
      } catch (error) {
        // The list moved since the cache saw it (the guarded removal's test failed).
        if (!isConflict(error)) throw error;
      }
    }
    const existing = await this.#fetch(name);
    if (existing) await this.#letGo(key, existing);
  }

  /** Removes our finalizer from `object`, as a write of this store's own. */
  async #letGo(key: string, object: KubeObject): Promise<void> {
    await this.#ownWrites.write(key, () => removeFinalizer(this.#client, object, HARDWARE_DATA_FINALIZER));
  }

  /** Whether the cached copy still carries our finalizer. */
  holds(name: ObjectName): boolean {
    return this.#cache.get(name)?.metadata.finalizers?.includes(HARDWARE_DATA_FINALIZER) ?? false;
  }

  async #fetch(name: ObjectName): Promise<KubeObject | undefined> {
    try {
      return await this.#client.get(name);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}
