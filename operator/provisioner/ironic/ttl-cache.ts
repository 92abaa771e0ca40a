// A small map whose entries expire, for data that is cheap to re-read but costly to read often.
import type { Clock } from '../../runtime/clock.ts';

export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #maxEntries: number;

  constructor(options: { clock: Clock; ttlMs: number; maxEntries?: number }) {
    this.#clock = options.clock;
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#clock.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.#ttlMs <= 0) return;
    this.#entries.delete(key);
    // Maps iterate in insertion order, so the first key is the oldest.
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt: this.#clock.now() + this.#ttlMs });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}
