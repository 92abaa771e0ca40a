import { METAL3_API_VERSION } from '../api/group-version.ts';
import { ENVIRONMENT_LABEL, ENVIRONMENT_LABEL_VALUE } from '../api/labels.ts';
import { SECRET_FINALIZER } from '../api/finalizers.ts';
import type { Informer } from '../runtime/informer.ts';
import { isNotFound } from '../runtime/kube-errors.ts';
import { keyOf } from '../runtime/kube-object.ts';
import type { KubeObject, ObjectName } from '../runtime/kube-object.ts';
import type { ResourceClient } from '../runtime/resource-client.ts';
import { RecentWrites } from '../runtime/recent-writes.ts';

export interface SecretObject extends KubeObject {
  data?: Record<string, string>;
  type?: string;
}

/** Label selector of the Secret cache: only Secrets a host or a switch claimed are cached and watched. */
export const CLAIMED_SECRET_SELECTOR = `${ENVIRONMENT_LABEL}=${ENVIRONMENT_LABEL_VALUE}`;

/** A metal3.io object that reads a Secret; BareMetalHost unless another kind is named. */
export interface SecretOwner {
  kind?: string;
  name: string;
  uid: string;
}

export interface ClaimOptions {
  /** The object that uses the Secret: a (non-controller) owner reference, so Secret edits wake it. */
  owner?: SecretOwner;
  /** Hold the Secret until the owner is gone. */
  finalizer: boolean;
}

/** What the controller needs of Secrets; SecretStore is the Kubernetes implementation. */
export interface SecretAccess {
  /** The Secret, claimed (label, owner reference, finalizer as asked), or undefined when it does not exist. */
  claim(name: ObjectName, options: ClaimOptions & { signal?: AbortSignal }): Promise<SecretObject | undefined>;
  release(name: ObjectName): Promise<void>;
}

/** What the BareMetalHost controller needs besides: the Secrets a host claimed and no longer uses. */
export interface ClaimedSecretAccess extends SecretAccess {
  /**
   * Names of the Secrets of the namespace this owner holds with our finalizer (its owner
   * reference and the finalizer, as on a BMC Secret), as the cache holds them.
   */
  heldBy(namespace: string, ownerUid: string): string[];
  /** Takes the owner's reference off the Secret, and our finalizer too unless `keepFinalizer`; nothing if it is gone. */
  letGo(name: ObjectName, options: { ownerUid: string; keepFinalizer: boolean; signal?: AbortSignal }): Promise<void>;
}

/**
 * BMO's SecretManager: finds Secrets in the labelled cache or, for Secrets not claimed
 * yet, claims them (label, owner reference, finalizer) straight through the API, and
 * releases them on host deletion. Values are never logged.
 */
export class SecretStore implements ClaimedSecretAccess {
  readonly #client: ResourceClient<SecretObject>;
  readonly #cache: Informer<SecretObject>;
  readonly #recent: RecentWrites<SecretObject>;

  constructor(options: { client: ResourceClient<SecretObject>; cache: Informer<SecretObject> }) {
    this.#client = options.client;
    this.#cache = options.cache;
    this.#recent = new RecentWrites({ cache: options.cache });
  }

  /** Secrets whose last write the cache has not shown yet. */
  get pendingWrites(): number {
    return this.#recent.size;
  }

  /**
   * Adds what is missing of label, owner reference and finalizer; returns the Secret as stored.
   * A strategic merge patch adds this host's owner reference (keyed by uid) and the finalizer
   * (a set) to whatever the Secret holds by then, so hosts sharing one Secret never conflict:
   * with a merge patch pinned to a resourceVersion, 1,000 hosts racing for one Secret kept
   * losing, backing off and mostly stayed registering. A Secret the cache does not hold is not
   * claimed yet: the whole claim is sent without reading it first, and the answer is the Secret.
   */
  async claim(name: ObjectName, options: ClaimOptions & { signal?: AbortSignal }): Promise<SecretObject | undefined> {
    const cached = this.#recent.freshest(keyOf(name), this.#cache.get(name));
    const patch = claimPatch(cached?.metadata, options);
    if (cached && patch === undefined) return cached;
    try {
      return await this.#write(name, { replacedVersion: cached?.metadata.resourceVersion, metadataPatch: patch ?? {}, signal: options.signal });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /**
   * Makes the Secret's data exactly `data` (base64 values), claiming it first so the cache
   * holds it; false when the Secret does not exist. Written only when it differs, pinned to
   * the version read, so a concurrent edit fails with a conflict instead of being lost.
   */
  async replaceData(name: ObjectName, data: Record<string, string>, options: { signal?: AbortSignal } = {}): Promise<boolean> {
    const secret = await this.claim(name, { finalizer: false, ...options });
    if (!secret) return false;
    const stored = secret.data ?? {};
    const removed = Object.keys(stored).filter((key) => !(key in data));
    if (removed.length === 0 && Object.entries(data).every(([key, value]) => stored[key] === value)) return true;
    const patch = { metadata: { resourceVersion: secret.metadata.resourceVersion }, data: { ...Object.fromEntries(removed.map((key) => [key, null])), ...data } };
    const written = await this.#client.patch(name, patch, { type: 'merge', ...(options.signal ? { signal: options.signal } : {}) });
    this.#recent.remember(keyOf(name), secret.metadata.resourceVersion, written);
    return true;
  }

  /** Removes our finalizer, if the Secret still exists and has it. */
  async release(name: ObjectName): Promise<void> {
    const secret = await this.#find(name);
    if (!secret?.metadata.finalizers?.includes(SECRET_FINALIZER)) return;
    try {
      await this.#write(name, { replacedVersion: secret.metadata.resourceVersion, metadataPatch: { '$deleteFromPrimitiveList/finalizers': [SECRET_FINALIZER] } });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  heldBy(namespace: string, ownerUid: string): string[] {
    return this.#cache.list(namespace)
      .filter((secret) => secret.metadata.finalizers?.includes(SECRET_FINALIZER) && secret.metadata.ownerReferences?.some((ref) => ref.uid === ownerUid))
      .map((secret) => secret.metadata.name ?? '');
  }

  async letGo(name: ObjectName, options: { ownerUid: string; keepFinalizer: boolean; signal?: AbortSignal }): Promise<void> {
    const secret = await this.#find(name);
    if (!secret) return;
    const patch: Record<string, unknown> = {};
    // Strategic merge: ownerReferences merge by uid, so only this owner's entry goes.
    if (secret.metadata.ownerReferences?.some((ref) => ref.uid === options.ownerUid)) patch.ownerReferences = [{ $patch: 'delete', uid: options.ownerUid }];
    if (!options.keepFinalizer && secret.metadata.finalizers?.includes(SECRET_FINALIZER)) patch['$deleteFromPrimitiveList/finalizers'] = [SECRET_FINALIZER];
    if (Object.keys(patch).length === 0) return;
    try {
      await this.#write(name, { replacedVersion: secret.metadata.resourceVersion, metadataPatch: patch, signal: options.signal });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  /** The Secret, or undefined when it does not exist. */
  async #find(name: ObjectName): Promise<SecretObject | undefined> {
    const cached = this.#recent.freshest(keyOf(name), this.#cache.get(name));
    if (cached) return cached;
    try {
      return await this.#client.get(name);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async #write(name: ObjectName, write: { replacedVersion: string | undefined; metadataPatch: Record<string, unknown>; signal?: AbortSignal | undefined }): Promise<SecretObject> {
    // Strategic: each list entry merges into what is stored, so no resourceVersion is needed.
    const written = await this.#client.patch(name, { metadata: write.metadataPatch }, { type: 'strategic', ...(write.signal ? { signal: write.signal } : {}) });
    this.#recent.remember(keyOf(name), write.replacedVersion, written);
    return written;
  }
}

/**
 * The strategic-merge metadata patch that claims a Secret, given what it holds (undefined: not
 * known, so all of it), or undefined when nothing is missing.
 */
function claimPatch(metadata: KubeObject['metadata'] | undefined, options: ClaimOptions): Record<string, unknown> | undefined {
  const patch: Record<string, unknown> = {};
  if (metadata?.labels?.[ENVIRONMENT_LABEL] === undefined) patch.labels = { [ENVIRONMENT_LABEL]: ENVIRONMENT_LABEL_VALUE };
  if (options.owner) {
    const mine = metadata?.ownerReferences?.find((ref) => ref.uid === options.owner?.uid);
    // BMO once set controller references on these Secrets; a plain owner reference is right
    // (null deletes the field from the merged entry, and is not stored on a new one).
    if (!mine || mine.controller !== undefined) {
      patch.ownerReferences = [{ apiVersion: METAL3_API_VERSION, kind: options.owner.kind ?? 'BareMetalHost', name: options.owner.name, uid: options.owner.uid, controller: null }];
    }
  }
  if (options.finalizer && !(metadata?.finalizers ?? []).includes(SECRET_FINALIZER)) patch.finalizers = [SECRET_FINALIZER];
  return Object.keys(patch).length ? patch : undefined;
}
