import { METAL3_API_VERSION } from '../../api/group-version.ts';
import { ENVIRONMENT_LABEL, ENVIRONMENT_LABEL_VALUE } from '../../api/labels.ts';
import { SECRET_FINALIZER } from '../../api/finalizers.ts';
import type { Informer } from '../../runtime/informer.ts';
import { isNotFound } from '../../runtime/kube-errors.ts';
import { keyOf } from '../../runtime/kube-object.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { RecentWrites } from '../../runtime/recent-writes.ts';

export interface SecretObject extends KubeObject {
  data?: Record<string, string>;
  type?: string;
}

/** Label selector of the Secret cache: only Secrets a host claimed are cached and watched. */
export const CLAIMED_SECRET_SELECTOR = `${ENVIRONMENT_LABEL}=${ENVIRONMENT_LABEL_VALUE}`;

export interface ClaimOptions {
  /** The host that uses the Secret: a (non-controller) owner reference, so Secret edits wake it. */
  owner?: { name: string; uid: string };
  /** Hold the Secret until the host is gone. */
  finalizer: boolean;
}

/** What the controller needs of Secrets; SecretStore is the Kubernetes implementation. */
export interface SecretAccess {
  find(name: ObjectName, options?: { signal?: AbortSignal }): Promise<SecretObject | undefined>;
  claim(secret: SecretObject, options: ClaimOptions): Promise<SecretObject>;
  release(name: ObjectName): Promise<void>;
}

/**
 * BMO's SecretManager: finds Secrets in the labelled cache or, for Secrets not claimed
 * yet, straight from the API; claims them (label, owner reference, finalizer) and
 * releases them on host deletion. Values are never logged.
 */
export class SecretStore implements SecretAccess {
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

  /** The Secret, or undefined when it does not exist. */
  async find(name: ObjectName, options: { signal?: AbortSignal } = {}): Promise<SecretObject | undefined> {
    const cached = this.#recent.freshest(keyOf(name), this.#cache.get(name));
    if (cached) return cached;
    try {
      return await this.#client.get(name, options);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /**
   * Adds what is missing of label, owner reference and finalizer; returns the Secret as stored.
   * A strategic merge patch adds this host's owner reference (keyed by uid) and the finalizer
   * (a set) to whatever the Secret holds by then, so hosts sharing one Secret never conflict:
   * with a merge patch pinned to a resourceVersion, 1,000 hosts racing for one Secret kept
   * losing, backing off and mostly stayed registering.
   */
  async claim(secret: SecretObject, options: ClaimOptions): Promise<SecretObject> {
    const metadata = secret.metadata;
    const patch: Record<string, unknown> = {};
    if (metadata.labels?.[ENVIRONMENT_LABEL] === undefined) patch.labels = { [ENVIRONMENT_LABEL]: ENVIRONMENT_LABEL_VALUE };
    if (options.owner) {
      const mine = (metadata.ownerReferences ?? []).find((ref) => ref.uid === options.owner?.uid);
      // BMO once set controller references on these Secrets; a plain owner reference is right
      // (null deletes the field from the merged entry).
      if (!mine || mine.controller !== undefined) {
        const reference = { apiVersion: METAL3_API_VERSION, kind: 'BareMetalHost', name: options.owner.name, uid: options.owner.uid };
        patch.ownerReferences = [mine?.controller !== undefined ? { ...reference, controller: null } : reference];
      }
    }
    if (options.finalizer && !(metadata.finalizers ?? []).includes(SECRET_FINALIZER)) patch.finalizers = [SECRET_FINALIZER];
    if (Object.keys(patch).length === 0) return secret;
    return this.#write(secret, patch);
  }

  /** Removes our finalizer, if the Secret still exists and has it. */
  async release(name: ObjectName): Promise<void> {
    const secret = await this.find(name);
    if (!secret?.metadata.finalizers?.includes(SECRET_FINALIZER)) return;
    try {
      await this.#write(secret, { '$deleteFromPrimitiveList/finalizers': [SECRET_FINALIZER] });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async #write(secret: SecretObject, metadataPatch: Record<string, unknown>): Promise<SecretObject> {
    // Strategic: each list entry merges into what is stored, so no resourceVersion is needed.
    const name = { namespace: secret.metadata.namespace, name: secret.metadata.name ?? '' };
    const written = await this.#client.patch(name, { metadata: metadataPatch }, { type: 'strategic' });
    this.#recent.remember(keyOf(name), secret.metadata.resourceVersion, written);
    return written;
  }
}
