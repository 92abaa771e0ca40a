import { withoutManagedFields } from './informer.ts';
import type { Informer } from './informer.ts';
import { objectKey } from './kube-object.ts';
import { cachedObjectStrings } from './string-interner.ts';
import type { KubeObject } from './kube-object.ts';

interface Entry<T> {
  /** Versions the informer may still show that are older than `object`. */
  stale: Set<string>;
  object: T;
  /** We created it: a cache without it has not seen the create yet, rather than seen it go. */
  created: boolean;
}

/** Trimmed as the informers trim what they cache: what a write returns carries managedFields. */
function keptCopy<T extends KubeObject>(object: T): T {
  return cachedObjectStrings.internAll(withoutManagedFields(object));
}

/**
 * Read-your-writes over an informer cache. After this controller writes an object, the
 * cache may still hold the version before the write for a moment; reconciling that stale
 * copy would repeat work and then fail on a conflict. Until the cache moves past the
 * versions we replaced, reads return what our last write returned.
 */
export class RecentWrites<T extends KubeObject> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #cached: ((key: string) => T | undefined) | undefined;

  /**
   * With the cache it covers, an entry goes as soon as the cache moves past it or the object
   * is deleted, so nothing outlives the object even if it is never read again.
   */
  constructor(options: { cache?: Partial<Pick<Informer<T>, 'addHandler' | 'getByKey'>> } = {}) {
    const { cache } = options;
    this.#cached = cache?.getByKey ? (key) => cache.getByKey?.(key) : undefined;
    cache?.addHandler?.({
      onAdd: (object) => this.#caughtUp(objectKey(object), object),
      onUpdate: (_old, object) => this.#caughtUp(objectKey(object), object),
      onDelete: (object) => this.#entries.delete(objectKey(object)),
    });
  }

  #caughtUp(key: string, cached: T): void {
    const entry = this.#entries.get(key);
    const version = cached.metadata.resourceVersion;
    if (entry && version !== undefined && !entry.stale.has(version)) this.#entries.delete(key);
  }

  /** Records that our write of `replaced` (the version we read) returned `written`. */
  rememberWrite(replaced: KubeObject, written: T): void {
    this.remember(objectKey(replaced), replaced.metadata.resourceVersion, written);
  }

  /** Records that `replacedVersion` was overwritten by `written`. */
  remember(key: string, replacedVersion: string | undefined, written: T): void {
    const previous = this.#entries.get(key);
    const stale = new Set(previous?.stale ?? []);
    if (replacedVersion) stale.add(replacedVersion);
    // The watch can deliver the write before its response: then nothing would come to drop the
    // entry, and a host that goes quiet would keep a copy of itself here for good.
    const version = this.#cached?.(key)?.metadata.resourceVersion;
    if (version !== undefined && !stale.has(version)) {
      this.#entries.delete(key);
      return;
    }
    this.#entries.set(key, { stale, object: keptCopy(written), created: previous?.created ?? false });
  }

  /** Records an object we created, which the cache may not show for a moment. */
  rememberCreated(key: string, created: T): void {
    if (this.#cached?.(key)) return;
    this.#entries.set(key, { stale: new Set(), object: keptCopy(created), created: true });
  }

  /** The newest copy we know of: the cache's, unless it still shows a version we replaced. */
  freshest(key: string, cached: T | undefined): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return cached;
    if (cached === undefined && entry.created) return entry.object;
    const version = cached?.metadata.resourceVersion;
    if (cached && version !== undefined && entry.stale.has(version)) return entry.object;
    this.#entries.delete(key);
    return cached;
  }

  forget(key: string): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
