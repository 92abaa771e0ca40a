import { randomUUID } from 'node:crypto';
import type { Clock } from './clock.ts';
import { systemClock } from './clock.ts';
import { toMilliseconds } from './duration.ts';
import { isTerminalError } from './errors.ts';
import { keysForEvent } from './event-handlers.ts';
import type { MapFunc } from './event-handlers.ts';
import type { Informer } from './informer.ts';
import { isConflict, isNamespaceTerminating, toKubeError } from './kube-errors.ts';
import { keyOf, parseKey } from './kube-object.ts';
import type { KubeObject, ObjectName } from './kube-object.ts';
import type { Logger } from './logger.ts';
import { silentLogger } from './logger.ts';
import type { ControllerMetrics, ReconcileOutcome, RuntimeMetrics } from './metrics.ts';
import { allows } from './predicates.ts';
import type { ObjectEvent, Predicate } from './predicates.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { defaultControllerRateLimiter } from './rate-limiter.ts';
import type { ReconcileFunc, Reconciler } from './reconciler.ts';
import { asReconciler } from './reconciler.ts';
import { WorkQueue } from './workqueue.ts';

export interface ControllerOptions {
  /** Unique per manager; the `controller` label on metrics and logs. */
  name: string;
  reconciler: Reconciler | ReconcileFunc;
  /** Kind of the primary object, for logs (`controllerKind`). */
  kind?: string;
  /** Workers reconciling different keys at once; one key never runs twice concurrently. */
  maxConcurrentReconciles?: number;
  rateLimiter?: RateLimiter<string>;
  clock?: Clock;
  logger?: Logger;
  metrics?: RuntimeMetrics;
  newReconcileID?: () => string;
}

export interface WatchOptions<T extends KubeObject> {
  /** Which keys an event on this informer triggers. */
  map: MapFunc<T>;
  /** All must pass for an event to be enqueued. */
  predicates?: Predicate<T>[];
  /**
   * Enqueue on periodic resyncs, bypassing predicates. True for the primary kind (that is
   * the point of a resync); secondary kinds would only repeat it.
   */
  enqueueOnResync?: boolean;
}

interface Source {
  informer: Informer<KubeObject>;
  options: WatchOptions<KubeObject>;
}

const noopControllerMetrics: ControllerMetrics = {
  reconciled() {},
  failed() {},
  workerStarted() {},
  workerStopped() {},
};

/**
 * Feeds informer events through predicates and map functions into a rate-limited work
 * queue, and runs the reconciler on the keys with a fixed number of workers.
 */
export class Controller {
  readonly name: string;
  readonly queue: WorkQueue<string>;
  readonly #reconciler: Reconciler;
  readonly #concurrency: number;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #metrics: ControllerMetrics;
  readonly #newReconcileID: () => string;
  readonly #sources: Source[] = [];
  #started = false;

  constructor(options: ControllerOptions) {
    this.name = options.name;
    this.#reconciler = asReconciler(options.reconciler);
    this.#concurrency = Math.max(1, options.maxConcurrentReconciles ?? 1);
    this.#clock = options.clock ?? systemClock;
    this.#logger = (options.logger ?? silentLogger()).child({
      controller: options.name,
      ...(options.kind ? { controllerKind: options.kind } : {}),
    });
    this.#metrics = options.metrics?.controller(options.name, this.#concurrency) ?? noopControllerMetrics;
    this.#newReconcileID = options.newReconcileID ?? randomUUID;
    this.queue = new WorkQueue<string>({
      name: options.name,
      clock: this.#clock,
      rateLimiter: options.rateLimiter ?? defaultControllerRateLimiter<string>({ clock: this.#clock }),
      metrics: options.metrics?.workQueue(options.name),
    });
  }

  /** Adds a watch; handlers are attached when the controller starts. */
  watch<T extends KubeObject>(informer: Informer<T>, options: WatchOptions<T>): this {
    if (this.#started) throw new Error(`controller ${this.name}: add watches before starting it`);
    this.#sources.push({ informer, options } as unknown as Source);
    return this;
  }

  /** The informers this controller reads, so a manager can start them first. */
  get informers(): Informer<KubeObject>[] {
    return [...new Set(this.#sources.map((s) => s.informer))];
  }

  /** `urgent`: ahead of everything queued that is not (the work queue's two levels). */
  enqueue(target: ObjectName | string, options: { urgent?: boolean } = {}): void {
    this.queue.add(typeof target === 'string' ? target : keyOf(target), options);
  }

  /**
   * Waits for its informers to sync, then reconciles until `signal` aborts. On abort it
   * stops taking keys and resolves once the in-flight reconciles have finished.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new Error(`controller ${this.name} was already started`);
    this.#started = true;
    const unsubscribe = this.#sources.map((source) => source.informer.addHandler(this.#handlerFor(source.options)));
    const onAbort = (): void => this.queue.shutDown();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    try {
      const synced = await Promise.all(this.#sources.map((s) => s.informer.waitForSync(signal)));
      if (synced.every(Boolean)) {
        this.#logger.info('starting workers', { workerCount: this.#concurrency });
        await Promise.all(Array.from({ length: this.#concurrency }, () => this.#worker(signal)));
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      for (const off of unsubscribe) off();
      this.queue.shutDown();
      this.#logger.info('all workers finished');
    }
  }

  #handlerFor(options: WatchOptions<KubeObject>) {
    const predicates = options.predicates ?? [];
    const enqueue = (event: ObjectEvent): void => {
      if (!predicates.every((p) => allows(p, event))) return;
      for (const key of keysForEvent(options.map, event)) this.queue.add(key);
    };
    return {
      onAdd: (object: KubeObject) => enqueue({ type: 'create', object }),
      onUpdate: (oldObject: KubeObject, object: KubeObject) => enqueue({ type: 'update', oldObject, object }),
      onDelete: (object: KubeObject, info: { finalStateUnknown: boolean }) =>
        enqueue({ type: 'delete', object, finalStateUnknown: info.finalStateUnknown }),
      onResync: (object: KubeObject) => {
        if (!options.enqueueOnResync) return;
        for (const key of keysForEvent(options.map, { type: 'create', object })) this.queue.add(key);
      },
    };
  }

  async #worker(signal: AbortSignal): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      this.#metrics.workerStarted();
      try {
        await this.#reconcileKey(key, signal);
      } finally {
        this.queue.done(key);
        this.#metrics.workerStopped();
      }
    }
  }

  async #reconcileKey(key: string, signal: AbortSignal): Promise<void> {
    const request = parseKey(key);
    const reconcileID = this.#newReconcileID();
    const log = this.#logger.child({
      object: request,
      ...(request.namespace ? { namespace: request.namespace } : {}),
      name: request.name,
      reconcileID,
    });
    const startedAt = this.#clock.now();
    let outcome: ReconcileOutcome;
    try {
      const result = (await this.#reconciler.reconcile(request, { signal, log, reconcileID, controller: this.name })) ?? {};
      const requeueAfterMs = result.requeueAfter === undefined ? 0 : toMilliseconds(result.requeueAfter);
      if (requeueAfterMs > 0) {
        this.queue.forget(key);
        this.queue.addAfter(key, requeueAfterMs);
        outcome = 'requeue_after';
      } else if (result.requeueNow) {
        this.queue.forget(key);
        this.queue.add(key);
        outcome = 'requeue';
      } else if (result.requeue) {
        this.queue.addRateLimited(key);
        outcome = 'requeue';
      } else {
        this.queue.forget(key);
        outcome = 'success';
      }
    } catch (error) {
      outcome = 'error';
      const terminal = isTerminalError(error);
      this.#metrics.failed({ terminal });
      if (signal.aborted) {
        // Interrupted by shutdown or lost leadership: whoever runs next picks the key up.
        log.debug('reconcile interrupted', { error });
      } else if (terminal) {
        this.queue.forget(key);
        log.error('Reconciler error', { error, terminal: true });
      } else if (isNamespaceTerminating(error)) {
        // A retry would be refused the same way; the namespace's deletion reaches the object soon and wakes it.
        this.queue.forget(key);
        log.info('the namespace is being deleted, so the pass could not create what it needed; waiting for the deletion to reach this object',
          { kubeError: toKubeError(error) });
      } else {
        this.queue.addRateLimited(key);
        // Conflicts are routine with a cache that lags the API: retry quietly.
        const logAt = isConflict(error) ? log.debug.bind(log) : log.error.bind(log);
        const kubeError = toKubeError(error);
        logAt('Reconciler error', {
          error,
          ...(kubeError.code ? { kubeError } : {}),
          retries: this.queue.numRequeues(key),
        });
      }
    }
    this.#metrics.reconciled(outcome, (this.#clock.now() - startedAt) / 1000);
  }
}
