// When to ask Ironic for a host's BIOS settings: when they can have changed, not on a timer.
// Ironic refreshes its copy when it manages the node (registration), after inspection and
// after cleaning (preparing), so a new node or a new provisioning state is what triggers a
// read; a slow resync covers changes made behind everyone's back.

export const SETTINGS_RESYNC_MS = 30 * 60_000;

interface LastRead {
  /** Node and provisioning state at the read. */
  marker: string;
  atMs: number;
}

export class SettingsReadSchedule {
  readonly #last = new Map<string, LastRead>();

  /** Whether the settings need reading now for this host (by UID) in this node and state. */
  due(hostUid: string, marker: string, nowMs: number): boolean {
    const last = this.#last.get(hostUid);
    return last === undefined || last.marker !== marker || nowMs - last.atMs >= SETTINGS_RESYNC_MS;
  }

  read(hostUid: string, marker: string, nowMs: number): void {
    this.#last.set(hostUid, { marker, atMs: nowMs });
  }

  forget(hostUid: string): void {
    this.#last.delete(hostUid);
  }
}
