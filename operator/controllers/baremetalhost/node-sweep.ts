// Hosts at rest are not polled one by one (poll-schedule.ts). Instead, one node list every
// interval says which nodes changed since the last look (power, state, maintenance, fault, last
// error, health), and only their hosts are woken: BMO notices such a change within its minute
// per host, and so does this, at one request per page of nodes whatever N is.
import type { Clock } from '../../runtime/clock.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import { objectKey, objectName } from '../../runtime/kube-object.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { Runnable } from '../../runtime/manager.ts';

/** Ironic's answer for a node no longer in the list (its database lost, the node deleted). */
const ABSENT = 'absent';

export interface AtRestSweepOptions {
  /** What every node looks like now (the provisioner's `nodeDigests`). */
  nodeDigests: () => Promise<ReadonlyMap<string, string>>;
  hosts: { list(): KubeObject[] };
  wake: (host: ObjectName) => void;
  intervalMs: number;
  clock: Clock;
  log: Logger;
}

const nodeIdOf = (host: KubeObject): string | undefined =>
  (host.status as { provisioning?: { ID?: string } } | undefined)?.provisioning?.ID || undefined;

export class AtRestSweep implements Runnable {
  readonly #options: AtRestSweepOptions;
  /** Per host (namespace/name): its node's digest at the last look. Follows the host cache. */
  readonly #seen = new Map<string, string>();
  #failing = false;

  constructor(options: AtRestSweepOptions) {
    this.#options = options;
  }

  /** One look: wakes every host whose node changed (or went) since the last; returns how many. */
  async sweep(): Promise<number> {
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
      const before = this.#seen.get(key);
      this.#seen.set(key, digest);
      // A node gone is out of step at first sight too (Ironic may have lost it before any look
      // succeeded); any other first sight is the baseline, the host having read its node itself.
      if (before === undefined ? absent : before !== digest) {
        this.#options.wake(objectName(host));
        woken += 1;
      }
    }
    for (const key of this.#seen.keys()) if (!present.has(key)) this.#seen.delete(key);
    return woken;
  }

  async start(signal: AbortSignal): Promise<void> {
    // The first look right away, so a change soon after start-up has a baseline to differ from.
    for (let first = true; !signal.aborted; first = false) {
      if (!first) await this.#sleep(signal);
      if (signal.aborted) return;
      try {
        const woken = await this.sweep();
        if (this.#failing) this.#options.log.info('node sweep works again');
        this.#failing = false;
        if (woken > 0) this.#options.log.debug('node sweep woke hosts whose node changed', { hosts: woken });
      } catch (error) {
        // Hosts find out about an unreachable Ironic themselves; say it once here.
        if (!this.#failing) this.#options.log.info('node sweep failed; hosts at rest wait for the next one', { error: (error as Error).message });
        this.#failing = true;
      }
    }
  }

  #sleep(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        timer.cancel();
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = this.#options.clock.setTimer(done, this.#options.intervalMs);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
