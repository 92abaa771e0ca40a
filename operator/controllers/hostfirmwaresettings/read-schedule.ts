// When to ask Ironic for a host's firmware (BIOS settings or firmware components): once its copy
// can have changed, not on a timer. Ironic's copies change only at the end of operations (verify,
// inspection for the components, the steps of manual cleaning and servicing), which the
// provisioner counts for the operations this process asked for: a new count is what triggers a
// read, and none is made while such an operation is under way. Without a count (another process
// asked, e.g. before a restart, or a provisioner that cannot tell) any new node or provisioning
// state does. A slow resync covers changes made behind everyone's back.

export const SETTINGS_RESYNC_MS = 30 * 60_000;

/** Where the host is, and the provisioner's count of refreshes of the copy read (if any). */
export interface ReadPoint {
  /** Node and provisioning state (firmwareReadMarker). */
  marker: string;
  refresh?: number | undefined;
  /** An operation under way will refresh the copy: reading it now would be wasted. */
  awaited?: boolean | undefined;
}

interface LastRead extends ReadPoint {
  atMs: number;
}

export class SettingsReadSchedule {
  readonly #last = new Map<string, LastRead>();

  /** Whether the copy needs reading now for this host (by UID) at this point. */
  due(hostUid: string, point: ReadPoint, nowMs: number): boolean {
    const last = this.#last.get(hostUid);
    if (last === undefined) return !point.awaited;
    if (nowMs - last.atMs >= SETTINGS_RESYNC_MS) return true;
    if (point.awaited) return false;
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
