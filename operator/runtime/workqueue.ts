import type { Clock, Timer } from './clock.ts';
import { systemClock } from './clock.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { defaultControllerRateLimiter } from './rate-limiter.ts';

/** Hooks the queue calls so metrics stay out of its logic (client-go `queueMetrics`). */
export interface WorkQueueMetrics {
  added(): void;
  depth(length: number): void;
  /** An item left the queue for a worker after waiting `waitedMs`. */
  started(waitedMs: number): void;
  /** A worker finished an item after `workedMs`. */
  finished(workedMs: number): void;
  retried(): void;
}

export const noopWorkQueueMetrics: WorkQueueMetrics = {
  added() {},
  depth() {},
  started() {},
  finished() {},
  retried() {},
};

export interface WorkQueueOptions<K> {
  name: string;
  rateLimiter?: RateLimiter<K>;
  clock?: Clock;
  metrics?: WorkQueueMetrics;
  /**
   * Urgent items handed out in a row while others wait, before one that is not goes next. With
   * the default the two levels take turns: hosts whose node moved on still go ahead of a backlog,
   * and new work still starts while a node list wakes hosts every few seconds (starting it only
   * when no host had moved on kept Ironic's pipeline a few hosts deep; test/bench/README.md,
   * session 23). @default 1
   */
  maxUrgentInARow?: number;
}

/**
 * client-go's rate-limiting work queue. Rules:
 * - an item is queued at most once (`dirty` de-duplicates adds);
 * - an item is never handed to two workers at once (`processing`);
 * - an item added while being processed is queued again when its worker calls `done`,
 *   so changes that arrive mid-reconcile are coalesced into one more run;
 * - delayed adds keep one timer per item and the earliest wins;
 * - an `urgent` add goes ahead of every item that is not (controller-runtime's priority queue,
 *   with two levels), and lifts the item if it was already waiting; order is FIFO within a level;
 * - unlike controller-runtime's, after `maxUrgentInARow` urgent items (one by default) a waiting
 *   item that is not urgent goes next, so none waits for ever.
 */
export class WorkQueue<K = string> {
  readonly name: string;
  readonly #rateLimiter: RateLimiter<K>;
  readonly #clock: Clock;
  readonly #metrics: WorkQueueMetrics;
  /** Waiting items by level, each entry with the ticket it was queued with. */
  #urgent: Array<[K, number]> = [];
  #queue: Array<[K, number]> = [];
  /** Items waiting for a worker: their current ticket and level. An entry whose ticket differs was superseded. */
  readonly #waiting = new Map<K, { ticket: number; urgent: boolean }>();
  #tickets = 0;
  /** Items being processed that were added urgently meanwhile. */
  readonly #urgentWhenDone = new Set<K>();
  readonly #dirty = new Set<K>();
  readonly #processing = new Set<K>();
  readonly #delayed = new Map<K, { dueAt: number; timer: Timer }>();
  readonly #queuedAt = new Map<K, number>();
  readonly #startedAt = new Map<K, number>();
  #getters: Array<(item: K | undefined) => void> = [];
  #drainWaiters: Array<() => void> = [];
  #shuttingDown = false;
  readonly #maxUrgentInARow: number;
  /** Urgent items handed out since the last one that was not. */
  #urgentInARow = 0;

  constructor(options: WorkQueueOptions<K>) {
    this.name = options.name;
    this.#clock = options.clock ?? systemClock;
    this.#rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<K>({ clock: this.#clock });
    this.#metrics = options.metrics ?? noopWorkQueueMetrics;
    this.#maxUrgentInARow = options.maxUrgentInARow ?? 1;
    if (!(Number.isInteger(this.#maxUrgentInARow) && this.#maxUrgentInARow >= 1)) {
      throw new RangeError(`maxUrgentInARow must be a positive integer, got ${options.maxUrgentInARow}`);
    }
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Items waiting for a worker (not counting those being processed or delayed). */
  len(): number {
    return this.#waiting.size;
  }

  isProcessing(item: K): boolean {
    return this.#processing.has(item);
  }

  /** Items scheduled with addAfter/addRateLimited that are not yet due. */
  delayedCount(): number {
    return this.#delayed.size;
  }

  add(item: K, options: { urgent?: boolean } = {}): void {
    if (this.#shuttingDown) return;
    const urgent = options.urgent ?? false;
    if (this.#dirty.has(item)) {
      if (!urgent) return;
      if (this.#processing.has(item)) this.#urgentWhenDone.add(item);
      else if (this.#waiting.get(item)?.urgent === false) this.#enter(item, { urgent });
      return;
    }
    this.#metrics.added();
    this.#dirty.add(item);
    if (this.#processing.has(item)) {
      if (urgent) this.#urgentWhenDone.add(item);
      return;
    }
    this.#push(item, { urgent });
  }

  addAfter(item: K, delayMs: number): void {
    if (this.#shuttingDown) return;
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    const dueAt = this.#clock.now() + delayMs;
    const existing = this.#delayed.get(item);
    if (existing && existing.dueAt <= dueAt) return;
    existing?.timer.cancel();
    const timer = this.#clock.setTimer(() => {
      this.#delayed.delete(item);
      this.add(item);
    }, delayMs);
    this.#delayed.set(item, { dueAt, timer });
  }

  /** Re-adds `item` after the rate limiter's delay; each call counts as a failure. */
  addRateLimited(item: K): void {
    if (this.#shuttingDown) return;
    this.#metrics.retried();
    this.addAfter(item, this.#rateLimiter.when(item));
  }

  /** Clears `item`'s failure history: call it when processing succeeded. */
  forget(item: K): void {
    this.#rateLimiter.forget(item);
  }

  numRequeues(item: K): number {
    return this.#rateLimiter.numRequeues(item);
  }

  /** Waits for the next item; resolves `undefined` once the queue is shut down. */
  get(): Promise<K | undefined> {
    if (this.#shuttingDown) return Promise.resolve(undefined);
    const item = this.#next();
    if (item !== undefined) return Promise.resolve(this.#startProcessing(item));
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  /** Marks `item` finished; if it was added again meanwhile it goes back in the queue. */
  done(item: K): void {
    if (!this.#processing.delete(item)) return;
    const startedAt = this.#startedAt.get(item);
    this.#startedAt.delete(item);
    if (startedAt !== undefined) this.#metrics.finished(this.#clock.now() - startedAt);
    const urgent = this.#urgentWhenDone.delete(item);
    if (this.#dirty.has(item) && !this.#shuttingDown) this.#push(item, { urgent });
    if (this.#processing.size === 0) this.#notifyDrained();
  }

  /**
   * Stops handing out items: pending `get`s resolve `undefined`, delayed items are dropped
   * and new adds are ignored. Items already queued are left for the next leader or process
   * to reconcile (reconciliation is level-triggered, so nothing is lost).
   */
  shutDown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    for (const { timer } of this.#delayed.values()) timer.cancel();
    this.#delayed.clear();
    const getters = this.#getters;
    this.#getters = [];
    for (const resolve of getters) resolve(undefined);
    if (this.#processing.size === 0) this.#notifyDrained();
  }

  /** Shuts down and resolves once every in-flight item has been marked done. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  #push(item: K, options: { urgent: boolean }): void {
    this.#queuedAt.set(item, this.#clock.now());
    const getter = this.#getters.shift();
    if (getter) {
      getter(this.#startProcessing(item));
      return;
    }
    this.#enter(item, options);
    this.#metrics.depth(this.#waiting.size);
  }

  /** Queues `item` at a level; an earlier entry of it is superseded. */
  #enter(item: K, options: { urgent: boolean }): void {
    const ticket = ++this.#tickets;
    this.#waiting.set(item, { ticket, urgent: options.urgent });
    (options.urgent ? this.#urgent : this.#queue).push([item, ticket]);
  }

  /** The next waiting item, urgent ones first (up to `maxUrgentInARow` in a row). */
  #next(): K | undefined {
    const normalsTurn = this.#urgentInARow >= this.#maxUrgentInARow;
    const levels = normalsTurn ? [this.#queue, this.#urgent] : [this.#urgent, this.#queue];
    for (const level of levels) {
      const item = this.#take(level);
      if (item === undefined) continue;
      // Only urgent items handed out while another waits count towards its turn.
      this.#urgentInARow = level === this.#urgent && this.#someWaiting(this.#queue) ? this.#urgentInARow + 1 : 0;
      return item;
    }
    return undefined;
  }

  /** Whether an item still waits at the level (superseded entries at its head are dropped). */
  #someWaiting(level: Array<[K, number]>): boolean {
    while (level.length > 0) {
      const [item, ticket] = level[0]!;
      if (this.#waiting.get(item)?.ticket === ticket) return true;
      level.shift();
    }
    return false;
  }

  /** The level's first item still waiting there, skipping superseded entries. */
  #take(level: Array<[K, number]>): K | undefined {
    if (!this.#someWaiting(level)) return undefined;
    const [item] = level.shift()!;
    this.#waiting.delete(item);
    return item;
  }

  #startProcessing(item: K): K {
    // A wake-up scheduled before this pass (an earlier requeue or retry) is superseded: the pass
    // sees the latest state and schedules its own. Left, it would reconcile the item once more.
    const waiting = this.#delayed.get(item);
    if (waiting) {
      waiting.timer.cancel();
      this.#delayed.delete(item);
    }
    const now = this.#clock.now();
    const queuedAt = this.#queuedAt.get(item);
    this.#queuedAt.delete(item);
    this.#metrics.depth(this.#waiting.size);
    if (queuedAt !== undefined) this.#metrics.started(now - queuedAt);
    this.#startedAt.set(item, now);
    this.#processing.add(item);
    this.#dirty.delete(item);
    return item;
  }

  #notifyDrained(): void {
    if (!this.#shuttingDown) return;
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
