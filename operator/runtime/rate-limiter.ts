import type { Clock } from './clock.ts';
import { systemClock } from './clock.ts';

/** Decides how long an item waits before it is retried (client-go `workqueue.TypedRateLimiter`). */
export interface RateLimiter<K> {
  /** The delay for the next retry of `item`; calling it counts as one more failure. */
  when(item: K): number;
  /** Stop tracking `item` (it succeeded), so its next failure starts from the base delay again. */
  forget(item: K): void;
  numRequeues(item: K): number;
}

export interface ItemExponentialOptions {
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Per-item exponential backoff: base · 2^failures, capped. client-go: 5 ms to 1000 s. */
export class ItemExponentialFailureRateLimiter<K> implements RateLimiter<K> {
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #failures = new Map<K, number>();

  constructor(options: ItemExponentialOptions) {
    this.#baseDelayMs = options.baseDelayMs;
    this.#maxDelayMs = options.maxDelayMs;
  }

  when(item: K): number {
    const failures = this.#failures.get(item) ?? 0;
    this.#failures.set(item, failures + 1);
    return Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** failures);
  }

  forget(item: K): void {
    this.#failures.delete(item);
  }

  numRequeues(item: K): number {
    return this.#failures.get(item) ?? 0;
  }
}

export interface BucketOptions {
  /** Sustained rate, tokens per second. */
  qps: number;
  burst: number;
  clock?: Clock;
}

/**
 * An overall token bucket shared by all items (golang.org/x/time/rate reservation
 * semantics): each call takes a token, and when the bucket is empty the caller is told
 * how long to wait for the token it has already reserved.
 */
export class BucketRateLimiter<K> implements RateLimiter<K> {
  readonly #qps: number;
  readonly #burst: number;
  readonly #clock: Clock;
  #tokens: number;
  #last: number;

  constructor(options: BucketOptions) {
    this.#qps = options.qps;
    this.#burst = options.burst;
    this.#clock = options.clock ?? systemClock;
    this.#tokens = options.burst;
    this.#last = this.#clock.now();
  }

  when(_item: K): number {
    const now = this.#clock.now();
    const elapsedSeconds = Math.max(0, now - this.#last) / 1000;
    this.#last = now;
    this.#tokens = Math.min(this.#burst, this.#tokens + elapsedSeconds * this.#qps) - 1;
    return this.#tokens >= 0 ? 0 : (-this.#tokens / this.#qps) * 1000;
  }

  forget(_item: K): void {}

  numRequeues(_item: K): number {
    return 0;
  }
}

/** The worst (longest) answer of several limiters; how client-go combines per-item and overall limits. */
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  readonly #limiters: RateLimiter<K>[];

  constructor(...limiters: RateLimiter<K>[]) {
    this.#limiters = limiters;
  }

  when(item: K): number {
    return Math.max(0, ...this.#limiters.map((limiter) => limiter.when(item)));
  }

  forget(item: K): void {
    for (const limiter of this.#limiters) limiter.forget(item);
  }

  numRequeues(item: K): number {
    return Math.max(0, ...this.#limiters.map((limiter) => limiter.numRequeues(item)));
  }
}

export interface DefaultRateLimiterOptions {
  baseDelayMs?: number;
  maxDelayMs?: number;
  qps?: number;
  burst?: number;
  clock?: Clock;
}

/** client-go's `DefaultTypedControllerRateLimiter`: max(5 ms…1000 s per item, 10 qps / 100 burst overall). */
export function defaultControllerRateLimiter<K>(options: DefaultRateLimiterOptions = {}): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(
    new ItemExponentialFailureRateLimiter<K>({
      baseDelayMs: options.baseDelayMs ?? 5,
      maxDelayMs: options.maxDelayMs ?? 1_000_000,
    }),
    new BucketRateLimiter<K>({ qps: options.qps ?? 10, burst: options.burst ?? 100, clock: options.clock }),
  );
}
