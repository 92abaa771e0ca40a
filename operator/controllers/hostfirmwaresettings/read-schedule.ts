// When to ask Ironic for a host's firmware (BIOS settings or firmware components): once its copy
// can have changed, not on a timer. Ironic refreshes its copies only at the end of operations
// (verify, inspection for the components, cleaning, servicing), which the provisioner counts for
// the operations this process asked for: a new count is what triggers a read. Without a count
// (another process asked, e.g. before a restart, or a provisioner that cannot tell) any new node
// or provisioning state does. A slow resync covers changes made behind everyone's back.

export const SETTINGS_RESYNC_MS = 30 * 60_000;

/** Where the host is, and the provisioner's count of refreshes of the copy read (if any). */
export interface ReadPoint {
  /** Node and provisioning state (firmwareReadMarker). */
  marker: string;
  refresh?: number | undefined;
}

interface LastRead extends ReadPoint {
  atMs: number;
}

export class SettingsReadSchedule {
  readonly #last = new Map<string, LastRead>();

  /** Whether the copy needs reading now for this host (by UID) at this point. */
  due(hostUid: string, point: ReadPoint, nowMs: number): boolean {
    const last = this.#last.get(hostUid);
    if (last === undefined || nowMs - last.atMs >= SETTINGS_RESYNC_MS) return true;
    if (point.refresh !== undefined) return point.refresh !== last.refresh;
    return point.marker !== last.marker;
  }

  read(hostUid: string, point: ReadPoint, nowMs: number): void {
    this.#last.set(hostUid, { marker: point.marker, refresh: point.refresh, atMs: nowMs });
  }

  forget(hostUid: string): void {
    this.#last.delete(hostUid);
  }
}
