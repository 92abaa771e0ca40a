// Every watch event is parsed afresh, so each cached object has its own copy of every string
// in it: the namespace, apiVersion, image URLs, the hardware's vendor and model strings. At 1000
// fixture hosts 7.5 of the 58 MiB of live heap were such copies (test/bench/README.md, "Strings
// and parses held once"). Cached objects share one copy of each short string instead.

export interface StringInternerOptions {
  /** The table is emptied when it reaches this size, so strings of deleted objects do not stay. */
  maxEntries: number;
  /** Longer strings (certificates, user data) are rarely repeated and are left alone. */
  maxLength: number;
}

export const CACHE_INTERNER_OPTIONS: StringInternerOptions = { maxEntries: 20_000, maxLength: 128 };

export class StringInterner {
  readonly #table = new Map<string, string>();
  readonly #options: StringInternerOptions;

  constructor(options: StringInternerOptions = CACHE_INTERNER_OPTIONS) {
    this.#options = options;
  }

  /** The copy of `value` the table holds, which becomes `value` itself when there was none. */
  intern(value: string): string {
    if (value.length > this.#options.maxLength) return value;
    const known = this.#table.get(value);
    if (known !== undefined) return known;
    // Emptying keeps the table bounded; strings already shared stay shared, and a repeated
    // string is shared again from its next copy on.
    if (this.#table.size >= this.#options.maxEntries) this.#table.clear();
    this.#table.set(value, value);
    return value;
  }

  get size(): number {
    return this.#table.size;
  }

  /**
   * Replaces, in place, every string in the plain objects and arrays of `value` (a freshly
   * parsed API object) by its interned copy; equal strings are indistinguishable, so no reader
   * can tell. Frozen parts are left as they are.
   */
  internAll<T>(value: T): T {
    this.#visit(value);
    return value;
  }

  #visit(value: unknown): void {
    if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === 'string') value[i] = this.intern(item);
        else this.#visit(item);
      }
      return;
    }
    const record = value as Record<string, unknown>;
    for (const key in record) {
      const item = record[key];
      if (typeof item === 'string') record[key] = this.intern(item);
      else this.#visit(item);
    }
  }
}

/**
 * The one table for everything the operator keeps of API objects: the informers' caches and
 * our own recent writes, so a namespace or apiVersion is shared across kinds and copies.
 */
export const cachedObjectStrings = new StringInterner();
