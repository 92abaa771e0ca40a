import { Backoff, jittered } from './backoff.ts';
import type { Clock, Timer } from './clock.ts';
import { sleep, systemClock } from './clock.ts';
import { isGone, toKubeError } from './kube-errors.ts';
import { keyOf, objectKey } from './kube-object.ts';
import type { KubeObject, ObjectName } from './kube-object.ts';
import type { ListerWatcher } from './lister-watcher.ts';
import type { Logger } from './logger.ts';
import { silentLogger } from './logger.ts';
import type { WatchEvent } from './resource-client.ts';

/** Callbacks run synchronously, in order; keep them to enqueueing keys. */
export interface InformerHandler<T extends KubeObject = KubeObject> {
  onAdd?(object: T): void;
  onUpdate?(oldObject: T, newObject: T): void;
  /** `finalStateUnknown`: the delete was inferred from a relist, `object` is the last state seen. */
  onDelete?(object: T, info: { finalStateUnknown: boolean }): void;
  /** Periodic resync: every cached object is offered again, unchanged. */
  onResync?(object: T): void;
}

/**
 * Where the objects come from: one list+watch (a namespace or all), or one per namespace of a
 * set (BMO's comma-separated WATCH_NAMESPACE), each with its own resourceVersion, into one cache.
 */
export type InformerSources<T extends KubeObject> =
  | { listerWatcher: ListerWatcher<T> }
  | { perNamespace: ReadonlyMap<string, ListerWatcher<T>> };

export type InformerOptions<T extends KubeObject> = InformerSources<T> & {
  /** For logs, e.g. the kind. */
  name: string;
  /** How often every cached object is offered again; 0 disables. */
  resyncPeriodMs?: number;
  /** Restart backoff after failures (client-go reflector: 800 ms doubling to 30 s). */
  backoff?: { initialMs: number; maxMs: number };
  clock?: Clock;
  random?: () => number;
  logger?: Logger;
  /**
   * Applied to every listed or watched object before it is cached (controller-runtime's
   * cache TransformFunc): drop what no controller reads, so the cache holds one trimmed copy.
   */
  transform?: (object: T) => T;
};

/** One list+watch of an informer: all its namespaces (`namespace` undefined) or one. */
interface Source<T extends KubeObject> {
  namespace: string | undefined;
  listerWatcher: ListerWatcher<T>;
  backoff: Backoff;
  resourceVersion: string;
  synced: boolean;
}

/** The default trim: managedFields (often the largest part of an object) are never read. */
export function withoutManagedFields<T extends KubeObject>(object: T): T {
  if (object.metadata?.managedFields === undefined) return object;
  const { managedFields: _dropped, ...metadata } = object.metadata;
  return { ...object, metadata };
}

/**
 * A list+watch cache that does not stop on errors (client-node's ListWatch does):
 * - 410 Expired (as a status or an in-stream ERROR) relists at once, emitting the diff;
 * - any other failure restarts the watch from the last resourceVersion after a jittered
 *   exponential backoff, so no event is lost across API server restarts;
 * - updates carry both the old and the new object, for predicates;
 * - an optional periodic resync re-offers every object.
 * Cached objects are shared: never mutate them (structuredClone first).
 */
export class Informer<T extends KubeObject = KubeObject> {
  readonly name: string;
  readonly #sources: Source<T>[];
  readonly #resyncPeriodMs: number;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #logger: Logger;
  readonly #transform: (object: T) => T;
  readonly #cache = new Map<string, T>();
  readonly #handlers = new Set<InformerHandler<T>>();
  #synced = false;
  #syncWaiters: Array<() => void> = [];
  #resyncTimer: Timer | undefined;
  #running = false;
  #restarts = 0;

  constructor(options: InformerOptions<T>) {
    this.name = options.name;
    this.#resyncPeriodMs = options.resyncPeriodMs ?? 0;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#transform = options.transform ?? ((object) => object);
    this.#logger = (options.logger ?? silentLogger()).child({ informer: options.name });
    const source = (namespace: string | undefined, listerWatcher: ListerWatcher<T>): Source<T> => ({
      namespace, listerWatcher, resourceVersion: '', synced: false,
      backoff: new Backoff({ initialMs: options.backoff?.initialMs ?? 800, maxMs: options.backoff?.maxMs ?? 30_000, jitter: 0.2, random: this.#random }),
    });
    this.#sources = 'perNamespace' in options
      ? [...options.perNamespace].map(([namespace, listerWatcher]) => source(namespace, listerWatcher))
      : [source(undefined, options.listerWatcher)];
    if (this.#sources.length === 0) throw new Error(`informer ${options.name} has no namespace to watch`);
  }

  /** Failures that needed a backoff; exposed for tests and diagnostics. */
  get restarts(): number {
    return this.#restarts;
  }

  /** The resourceVersion each list+watch reached, comma-separated when there are several namespaces. */
  get lastSyncResourceVersion(): string {
    return this.#sources.map((source) => source.resourceVersion).join(',');
  }

  get isRunning(): boolean {
    return this.#running;
  }

  hasSynced(): boolean {
    return this.#synced;
  }

  /** Resolves `true` once the first list is in the cache, or `false` if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.#synced) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = (): void => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#syncWaiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      });
    });
  }

  /**
   * Subscribes `handler`; if the cache is already filled it first gets an add for every
   * object, like client-go's AddEventHandler. Returns an unsubscribe function.
   */
  addHandler(handler: InformerHandler<T>): () => void {
    this.#handlers.add(handler);
    if (this.#synced) {
      for (const object of this.#cache.values()) this.#call(() => handler.onAdd?.(object));
    }
    return () => this.#handlers.delete(handler);
  }

  get(name: ObjectName): T | undefined {
    return this.#cache.get(keyOf(name));
  }

  getByKey(key: string): T | undefined {
    return this.#cache.get(key);
  }

  list(namespace?: string): T[] {
    const all = [...this.#cache.values()];
    return namespace === undefined ? all : all.filter((o) => o.metadata.namespace === namespace);
  }

  /** Lists, watches and recovers until `signal` aborts, each namespace on its own. Never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#running) throw new Error(`informer ${this.name} is already running`);
    this.#running = true;
    try {
      await Promise.all(this.#sources.map((source) => this.#runSource(source, signal)));
    } finally {
      this.#resyncTimer?.cancel();
      this.#resyncTimer = undefined;
      this.#running = false;
    }
  }

  async #runSource(source: Source<T>, signal: AbortSignal): Promise<void> {
    let needsList = true;
    const where = source.namespace === undefined ? {} : { namespace: source.namespace };
    while (!signal.aborted) {
      const startedAt = this.#clock.now();
      try {
        if (needsList) {
          await this.#relist(source, signal);
          needsList = false;
        }
        const receivedEvents = await this.#watch(source, signal);
        // A watch the server closed at once, without a single event, is a failure in
        // disguise; back off instead of hot-looping on it.
        if (!receivedEvents && this.#clock.now() - startedAt < 1000 && !signal.aborted) {
          await sleep(this.#clock, source.backoff.next(), signal);
        }
      } catch (error) {
        if (signal.aborted) break;
        if (isGone(error)) {
          this.#logger.info('resource version expired; relisting', { resourceVersion: source.resourceVersion, ...where });
          needsList = true;
          continue;
        }
        this.#restarts++;
        const delayMs = source.backoff.next();
        this.#logger.warn(needsList ? 'list failed; retrying' : 'watch failed; resuming', {
          error: toKubeError(error),
          retryInMs: Math.round(delayMs),
          resourceVersion: source.resourceVersion,
          ...where,
        });
        await sleep(this.#clock, delayMs, signal);
      }
    }
  }

  async #relist(source: Source<T>, signal: AbortSignal): Promise<void> {
    const { items, resourceVersion } = await source.listerWatcher.list({ signal });
    if (signal.aborted) return;
    source.backoff.reset();
    const fresh = new Map(items.map((o) => [objectKey(o), this.#transform(o)] as const));
    for (const [key, object] of fresh) {
      const old = this.#cache.get(key);
      this.#cache.set(key, object);
      if (!old) this.#dispatch((h) => h.onAdd?.(object));
      else if (old.metadata.resourceVersion !== object.metadata.resourceVersion) {
        this.#dispatch((h) => h.onUpdate?.(old, object));
      }
    }
    // Gone since the last list: only this source's objects (another namespace has its own list).
    for (const [key, old] of [...this.#cache]) {
      if (fresh.has(key) || (source.namespace !== undefined && old.metadata.namespace !== source.namespace)) continue;
      this.#cache.delete(key);
      this.#dispatch((h) => h.onDelete?.(old, { finalStateUnknown: true }));
    }
    source.resourceVersion = resourceVersion;
    source.synced = true;
    if (!this.#synced && this.#sources.every((each) => each.synced)) {
      this.#synced = true;
      this.#logger.debug('synced', { objects: this.#cache.size, resourceVersion: this.lastSyncResourceVersion });
      for (const resolve of this.#syncWaiters.splice(0)) resolve();
      this.#scheduleResync(signal);
    }
  }

  /** Returns whether any event (bookmarks included) arrived. */
  async #watch(source: Source<T>, signal: AbortSignal): Promise<boolean> {
    let received = false;
    await source.listerWatcher.watch({ resourceVersion: source.resourceVersion, signal }, (event) => {
      received = true;
      source.backoff.reset();
      this.#apply(source, event);
    });
    return received;
  }

  #apply(source: Source<T>, event: WatchEvent<T>): void {
    const resourceVersion = event.object.metadata.resourceVersion;
    if (event.type !== 'BOOKMARK') {
      const object = this.#transform(event.object);
      const key = objectKey(object);
      const old = this.#cache.get(key);
      if (event.type === 'DELETED') {
        this.#cache.delete(key);
        this.#dispatch((h) => h.onDelete?.(object, { finalStateUnknown: false }));
      } else {
        this.#cache.set(key, object);
        if (old) this.#dispatch((h) => h.onUpdate?.(old, object));
        else this.#dispatch((h) => h.onAdd?.(object));
      }
    }
    if (resourceVersion) source.resourceVersion = resourceVersion;
  }

  #scheduleResync(signal: AbortSignal): void {
    if (this.#resyncPeriodMs <= 0 || signal.aborted) return;
    this.#resyncTimer = this.#clock.setTimer(
      () => {
        for (const object of this.#cache.values()) this.#dispatch((h) => h.onResync?.(object));
        this.#scheduleResync(signal);
      },
      jittered(this.#resyncPeriodMs, 0.1, this.#random),
    );
  }

  #dispatch(call: (handler: InformerHandler<T>) => void): void {
    for (const handler of this.#handlers) this.#call(() => call(handler));
  }

  #call(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      // One broken handler must not stop the informer or starve the others.
      this.#logger.error('event handler failed', { error });
    }
  }
}
