// PROVISIONING_LIMIT counted from this operator's own hosts instead of Ironic's node list.
// BMO lists every Ironic node on each check and counts those busy at that instant, so a host
// between two busy Ironic phases (manageable before `inspect`, available before `deploy`)
// looks free, and two workers checking at once both get the last slot. Here a slot is held
// from the moment a host is let into a limited state until its saved status leaves it.
// The ledger is kept up to date as hosts change (cache events, our own writes), so a check
// costs O(1) whatever the number of hosts.

export interface ProvisioningSlotsOptions {
  /** PROVISIONING_LIMIT. */
  limit: number;
}

interface Entry {
  /** The host's stored status (as fresh as we know it) holds a slot. */
  stored: boolean;
  /** Let in during a pass whose status write has not landed yet. */
  granted: boolean;
}

export class ProvisioningSlots {
  readonly #limit: number;
  /** Only hosts that hold a slot either way; a host holding none has no entry. */
  readonly #holders = new Map<string, Entry>();

  constructor(options: ProvisioningSlotsOptions) {
    if (!Number.isInteger(options.limit) || options.limit < 1) {
      throw new RangeError(`PROVISIONING_LIMIT must be a positive integer, got ${options.limit}`);
    }
    this.#limit = options.limit;
  }

  /** Hosts holding a slot now. */
  get held(): number {
    return this.#holders.size;
  }

  /** What the host's stored status says (call on every cache event and after our own writes). */
  observe(key: string, holdsSlot: boolean): void {
    this.#set(key, { stored: holdsSlot });
  }

  /** The host is gone. */
  forget(key: string): void {
    this.#holders.delete(key);
  }

  /**
   * True when `key` holds a slot or one is free (then it is held until `settle`). Synchronous on
   * purpose: no other reconcile can count between the check and the grant.
   */
  take(key: string): boolean {
    if (this.#holders.has(key)) return true;
    if (this.#holders.size >= this.#limit) return false;
    this.#set(key, { granted: true });
    return true;
  }

  /** The pass of `key` is over: from now on its saved status says whether it holds a slot. */
  settle(key: string): void {
    this.#set(key, { granted: false });
  }

  #set(key: string, change: Partial<Entry>): void {
    const entry = { ...(this.#holders.get(key) ?? { stored: false, granted: false }), ...change };
    if (entry.stored || entry.granted) this.#holders.set(key, entry);
    else this.#holders.delete(key);
  }
}
