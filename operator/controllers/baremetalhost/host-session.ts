import { BAREMETALHOST_FINALIZER } from '../../api/finalizers.ts';
import { addFinalizer, removeFinalizer } from '../../runtime/finalizers.ts';
import { objectKey, objectName } from '../../runtime/kube-object.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import type { RecentWrites } from '../../runtime/recent-writes.ts';

/** The writes a reconcile step may make to its host. */
export interface HostWrites {
  readonly latest: KubeObject;
  patchStatus(statusPatch: unknown): Promise<void>;
  patchSpec(specPatch: Record<string, unknown>): Promise<void>;
  removeAnnotations(keys: readonly string[]): Promise<void>;
}

/**
 * The writes one reconcile makes to its host. Every write carries the resourceVersion it
 * was based on, so a stale read fails with a conflict instead of clobbering newer data,
 * and each write's result becomes the base of the next one.
 */
export class HostSession implements HostWrites {
  readonly #client: ResourceClient<KubeObject>;
  readonly #recent: RecentWrites<KubeObject>;
  readonly #signal: AbortSignal | undefined;
  #latest: KubeObject;

  constructor(options: { client: ResourceClient<KubeObject>; recent: RecentWrites<KubeObject>; host: KubeObject; signal?: AbortSignal }) {
    this.#client = options.client;
    this.#recent = options.recent;
    this.#signal = options.signal;
    this.#latest = options.host;
  }

  get latest(): KubeObject {
    return this.#latest;
  }

  #track(written: KubeObject): KubeObject {
    this.#recent.remember(objectKey(this.#latest), this.#latest.metadata.resourceVersion, written);
    this.#latest = written;
    return written;
  }

  #lock(): { resourceVersion?: string } {
    const version = this.#latest.metadata.resourceVersion;
    return version ? { resourceVersion: version } : {};
  }

  /** One merge patch on /status. */
  async patchStatus(statusPatch: unknown): Promise<void> {
    const body = { metadata: this.#lock(), status: statusPatch };
    this.#track(await this.#client.patch(objectName(this.#latest), body, { type: 'merge', subresource: 'status', signal: this.#signal }));
  }

  /** A merge patch of the spec (only `spec.architecture` is ever filled in by the controller). */
  async patchSpec(specPatch: Record<string, unknown>): Promise<void> {
    const body = { metadata: this.#lock(), spec: specPatch };
    this.#track(await this.#client.patch(objectName(this.#latest), body, { type: 'merge', signal: this.#signal }));
  }

  async removeAnnotations(keys: readonly string[]): Promise<void> {
    const present = keys.filter((key) => key in (this.#latest.metadata.annotations ?? {}));
    if (present.length === 0) return;
    const body = { metadata: { ...this.#lock(), annotations: Object.fromEntries(present.map((key) => [key, null])) } };
    this.#track(await this.#client.patch(objectName(this.#latest), body, { type: 'merge', signal: this.#signal }));
  }

  /** One merge patch of metadata.labels: a value sets a label, null removes it; others are left alone. */
  async patchLabels(labels: Record<string, string | null>): Promise<void> {
    const body = { metadata: { ...this.#lock(), labels } };
    this.#track(await this.#client.patch(objectName(this.#latest), body, { type: 'merge', signal: this.#signal }));
  }

  async addFinalizer(): Promise<void> {
    const updated = await addFinalizer(this.#client, this.#latest, BAREMETALHOST_FINALIZER, { signal: this.#signal });
    if (updated !== this.#latest) this.#track(updated);
  }

  async removeFinalizer(): Promise<void> {
    const updated = await removeFinalizer(this.#client, this.#latest, BAREMETALHOST_FINALIZER, { signal: this.#signal });
    if (updated !== this.#latest) this.#track(updated);
  }
}
