export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** Growth per failure; 2 doubles. */
  factor?: number;
  /** Fraction of random spread added on top of each delay, so restarts do not synchronise. */
  jitter?: number;
  /** Returns a number in [0, 1); injected for deterministic tests. */
  random?: () => number;
}

/** Jittered exponential backoff for retry loops (informer restarts, lease retries). */
export class Backoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #factor: number;
  readonly #jitter: number;
  readonly #random: () => number;
  #attempts = 0;

  constructor(options: BackoffOptions) {
    this.#initialMs = options.initialMs;
    this.#maxMs = options.maxMs;
    this.#factor = options.factor ?? 2;
    this.#jitter = options.jitter ?? 0;
    this.#random = options.random ?? Math.random;
  }

  get attempts(): number {
    return this.#attempts;
  }

  /** The delay before the next attempt; each call grows the following one. */
  next(): number {
    const base = Math.min(this.#maxMs, this.#initialMs * this.#factor ** this.#attempts);
    this.#attempts++;
    return base + base * this.#jitter * this.#random();
  }

  reset(): void {
    this.#attempts = 0;
  }
}

/** Spreads a period by up to ±`fraction` so replicas and informers do not act in lockstep. */
export function jittered(periodMs: number, fraction: number, random: () => number = Math.random): number {
  return periodMs * (1 + fraction * (2 * random() - 1));
}
