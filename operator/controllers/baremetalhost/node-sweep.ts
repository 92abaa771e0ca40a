// Hosts are not polled one by one at rest (poll-schedule.ts). Instead, one node list every
// interval says which nodes changed since the last look (power, state, maintenance, fault, last
// error, health), and only their hosts are woken: BMO notices such a change within its minute
// per host, and so does this, at one request per page of nodes whatever N is. While some host
// waits on Ironic in a transient state the list runs at least every IRONIC_POLL_SHORT instead
// (every second while looks are cheap, `quickBusyInterval`), so the end of
// a cleaning or deployment is seen within seconds by one request for all hosts, where a host's own
// poll may be up to IRONIC_POLL_LONG away. A host whose wait only its node changing ends (an
// operation running in Ironic) then polls itself only as a backstop, as long as the list works
// (`watching`); when a list fails, those hosts are woken to poll on their own schedule again.
import type { NodeRead } from '../../provisioner/provisioner.ts';
import type { Clock } from '../../runtime/clock.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import { objectKey, objectName } from '../../runtime/kube-object.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { Runnable } from '../../runtime/manager.ts';

/** Ironic's answer for a node no longer in the list (its database lost, the node deleted). */
const ABSENT = 'absent';

export interface NodeSweepOptions {
  /** What every node looks like now (the provisioner's `nodeDigests`). */
  nodeDigests: () => Promise<ReadonlyMap<string, string>>;
  /** The node's digest as a host last read it, and when (the provisioner's `lastNodeRead`). */
  lastNodeRead?: (nodeId: string) => NodeRead | undefined;
  hosts: { list(): KubeObject[] };
  wake: (host: ObjectName) => void;
  /** Between looks while every host is at rest. */
  restIntervalMs: number;
  /** Between looks while some host is busy at most; also how often that is checked. */
  busyIntervalMs: number;
  /**
   * While some host is busy and looks are cheap, they come this often instead, as long as a
   * look's time (Ironic's list, then each host compared) stays within `lookTimeShare` of the pause
   * after it: a host's next step then waits less for its node's change to be seen, and neither
   * Ironic, busy with every host's work, nor this process is asked for more than it can afford.
   * Without it, looks are `busyIntervalMs` apart.
   */
  quickBusyInterval?: { ms: number; lookTimeShare: number };
  /** Whether a host waits on Ironic (a state that is polled). */
  isBusy: (host: KubeObject) => boolean;
  /**
   * Whether a host waits out the backoff of an error it recorded: its node changing does not wake
   * it (each early pass would retry and count one more failure towards its limit), nor keep the
   * sweep at the busy interval; its node going away still wakes it.
   */
  waitsOutError: (host: KubeObject) => boolean;
  clock: Clock;
  log: Logger;
}

const nodeIdOf = (host: KubeObject): string | undefined =>
  (host.status as { provisioning?: { ID?: string } } | undefined)?.provisioning?.ID || undefined;

export class NodeSweep implements Runnable {
  readonly #options: NodeSweepOptions;
  /** Per host (namespace/name): its node's digest at the last look. Follows the host cache. */
  readonly #seen = new Map<string, string>();
  #failing = false;
  #looked = false;
  /** When the last successful look began: reads of a node since then are newer than its digest. */
  #lastLookStartMs: number | undefined;
  /** How long the last look took. */
  #lastLookMs = 0;

  constructor(options: NodeSweepOptions) {
    if (!(options.busyIntervalMs > 0) || options.restIntervalMs < options.busyIntervalMs) {
      throw new RangeError(`node sweep intervals must be 0 < busy <= rest, got ${options.busyIntervalMs}/${options.restIntervalMs}`);
    }
    this.#options = options;
  }

  /** One look: wakes every host whose node changed (or went) since the last; returns how many. */
  async sweep(): Promise<number> {
    const startMs = this.#options.clock.now();
    const digests = await this.#options.nodeDigests();
    const present = new Set<string>();
    let woken = 0;
    for (const host of this.#options.hosts.list()) {
      const nodeId = nodeIdOf(host);
      if (!nodeId) continue;
      const key = objectKey(host);
      present.add(key);
      const absent = !digests.has(nodeId);
      const digest = absent ? `${ABSENT} ${nodeId}` : digests.get(nodeId)!;
      const before = this.#baseline(key, nodeId);
      this.#seen.set(key, digest);
      // A node gone is out of step at first sight too (Ironic may have lost it before any look
      // succeeded); any other first sight is the baseline, the host having read its node itself.
      const changed = before === undefined ? absent : before !== digest;
      if (changed && (absent || !this.#options.waitsOutError(host))) {
        this.#options.wake(objectName(host));
        woken += 1;
      }
    }
    for (const key of this.#seen.keys()) if (!present.has(key)) this.#seen.delete(key);
    this.#lastLookStartMs = startMs;
    this.#lastLookMs = this.#options.clock.now() - startMs;
    return woken;
  }

  /**
   * What the host is known to have seen: its own read of the node when that is newer than the
   * last look (an operation that began and ended between two looks, read by the host in between,
   * changes nothing from look to look), else the last look.
   */
  #baseline(key: string, nodeId: string): string | undefined {
    const before = this.#seen.get(key);
    const read = this.#options.lastNodeRead?.(nodeId);
    if (read === undefined) return before;
    if (before === undefined || this.#lastLookStartMs === undefined || read.atMs >= this.#lastLookStartMs) return read.digest;
    return before;
  }

  async start(signal: AbortSignal): Promise<void> {
    // The first look right away, so a change soon after start-up has a baseline to differ from.
    let lastLookMs: number | undefined;
    while (!signal.aborted) {
      const nowMs = this.#options.clock.now();
      // Once per turn: it walks every host.
      const busy = this.#someHostBusy();
      if (lastLookMs === undefined || nowMs - lastLookMs >= this.#options.restIntervalMs || busy) {
        lastLookMs = nowMs;
        await this.#look();
      }
      await this.#sleep(signal, this.#pauseMs(busy));
    }
  }

  /** Whether the last look succeeded: a change to any node will wake its host within an interval. */
  watching(): boolean {
    return this.#looked && !this.#failing;
  }

  #waitsOnIronic(host: KubeObject): boolean {
    return nodeIdOf(host) !== undefined && this.#options.isBusy(host) && !this.#options.waitsOutError(host);
  }

  #someHostBusy(): boolean {
    return this.#options.hosts.list().some((host) => this.#waitsOnIronic(host));
  }

  async #look(): Promise<void> {
    try {
      const woken = await this.sweep();
      if (this.#failing) this.#options.log.info('node sweep works again');
      this.#failing = false;
      this.#looked = true;
      if (woken > 0) this.#options.log.debug('node sweep woke hosts whose node changed', { hosts: woken });
    } catch (error) {
      if (this.#failing) return;
      // Hosts find out about an unreachable Ironic themselves; say it once here. Those that left
      // their polling to the list go back to their own schedule.
      this.#failing = true;
      const waiting = this.#options.hosts.list().filter((host) => this.#waitsOnIronic(host));
      for (const host of waiting) this.#options.wake(objectName(host));
      this.#options.log.info('node sweep failed; hosts waiting on Ironic poll it themselves until it works again', { error: (error as Error).message, woken: waiting.length });
    }
  }

  /** Until the next look (while busy) or the next check whether some host is busy. */
  #pauseMs(busy: boolean): number {
    const { busyIntervalMs, quickBusyInterval: quick } = this.#options;
    if (!quick || !busy) return busyIntervalMs;
    return Math.min(busyIntervalMs, Math.max(quick.ms, this.#lastLookMs / quick.lookTimeShare));
  }

  #sleep(signal: AbortSignal, pauseMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        timer.cancel();
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = this.#options.clock.setTimer(done, pauseMs);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
