import type { ObjectName } from './kube-object.ts';

export interface EventIdentity {
  /** uid (or namespace/name when there is no uid) of the object the event is about. */
  regarding: string;
  type: string;
  reason: string;
  action: string;
  note: string;
}

export type CorrelationDecision =
  | { action: 'create' }
  /** Bump the series of the Event already written for this key. */
  | { action: 'update'; event: ObjectName; count: number };

interface Entry {
  event?: ObjectName;
  count: number;
  lastObservedAt: number;
}

export interface EventCorrelatorOptions {
  /** Repeats closer together than this join a series instead of creating a new Event. */
  windowMs?: number;
  /** Bounded memory: the least recently seen keys are forgotten first. */
  maxEntries?: number;
}

/**
 * Decides whether an event is new or a repeat (client-go `tools/events` isomorphic-event
 * cache). A repeat within the window updates `series.count` (2 on the first repeat) on the
 * Event already written; after the window a fresh Event starts.
 */
export class EventCorrelator {
  readonly #windowMs: number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, Entry>();

  constructor(options: EventCorrelatorOptions = {}) {
    this.#windowMs = options.windowMs ?? 6 * 60_000;
    this.#maxEntries = options.maxEntries ?? 4096;
  }

  static keyOf(identity: EventIdentity): string {
    return JSON.stringify([identity.regarding, identity.type, identity.reason, identity.action, identity.note]);
  }

  get size(): number {
    return this.#entries.size;
  }

  observe(key: string, now: number): CorrelationDecision {
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    if (entry?.event && now - entry.lastObservedAt <= this.#windowMs) {
      const next = { event: entry.event, count: entry.count + 1, lastObservedAt: now };
      this.#entries.set(key, next);
      return { action: 'update', event: entry.event, count: next.count };
    }
    this.#entries.set(key, { count: 1, lastObservedAt: now });
    this.#evict(now);
    return { action: 'create' };
  }

  /** Remembers which Event a created key lives in, so repeats can update it. */
  created(key: string, event: ObjectName): void {
    const entry = this.#entries.get(key);
    if (entry) entry.event = event;
  }

  /** Drops a key, e.g. after its Event was found deleted (expired by the API server's TTL). */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  /**
   * Keys are kept least recently seen first, so this drops from the front: past the bound, and
   * past the window, after which a key could only start a new Event anyway (so after a burst of
   * thousands of hosts the next new event lets their keys go, instead of the bound only).
   */
  #evict(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && now - entry.lastObservedAt <= this.#windowMs) return;
      this.#entries.delete(key);
    }
  }
}
