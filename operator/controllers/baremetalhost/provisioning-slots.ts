// PROVISIONING_LIMIT counted from this operator's own hosts instead of Ironic's node list.
// BMO lists every Ironic node on each check and counts those busy at that instant, so a host
// between two busy Ironic phases (manageable before `inspect`, available before `deploy`)
// looks free, and two workers checking at once both get the last slot. Here a slot is held
// from the moment a host is let into a limited state until its saved status leaves it.

/** What the ledger needs to know of one host. */
export interface SlotHolderView {
  key: string;
  /** In a capacity-limited state and not waiting for a slot (`operationalStatus: delayed`). */
  holdsSlot: boolean;
}

export interface ProvisioningSlotsOptions {
  /** PROVISIONING_LIMIT. */
  limit: number;
  /** Every host the operator sees, as fresh as it knows it (including its own unsaved writes' results). */
  hosts: () => Iterable<SlotHolderView>;
}

export class ProvisioningSlots {
  readonly #options: ProvisioningSlotsOptions;
  /** Hosts let in during a pass whose status write has not landed yet. */
  readonly #granted = new Set<string>();

  constructor(options: ProvisioningSlotsOptions) {
    if (!Number.isInteger(options.limit) || options.limit < 1) {
      throw new RangeError(`PROVISIONING_LIMIT must be a positive integer, got ${options.limit}`);
    }
    this.#options = options;
  }

  /**
   * True when `key` holds a slot or one is free (then it is held until `settle`). Synchronous on
   * purpose: no other reconcile can count between the check and the grant.
   */
  take(key: string): boolean {
    const holders = this.#holders();
    if (holders.has(key)) return true;
    if (holders.size >= this.#options.limit) return false;
    this.#granted.add(key);
    return true;
  }

  /** The pass of `key` is over: from now on its saved status says whether it holds a slot. */
  settle(key: string): void {
    this.#granted.delete(key);
  }

  #holders(): Set<string> {
    const holders = new Set(this.#granted);
    for (const host of this.#options.hosts()) if (host.holdsSlot) holders.add(host.key);
    return holders;
  }
}
