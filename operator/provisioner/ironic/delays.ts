// Requeue hints with BMO's jitter (0-25 % added), so many hosts do not poll Ironic in step.
import { busy } from '../result.ts';
import type { Busy, BusyOptions } from '../result.ts';
import type { IronicProvisionerConfig } from './options.ts';

export interface Delays {
  /** Poll again soon: a quick transition or a lock is expected to clear within seconds. */
  short(reason: string, options?: BusyOptions): Busy;
  /**
   * Poll again later: the ramdisk is working (inspection, cleaning, deployment). Say
   * `awaitsNodeChange` when only the operation ending (a change in `nodeDigests`) needs the host.
   */
  long(reason: string, options?: BusyOptions): Busy;
  shortMs(): number;
}

export function createDelays(config: Pick<IronicProvisionerConfig, 'poll' | 'random'>): Delays {
  const jittered = (ms: number) => Math.round(ms + ms * config.poll.jitterFraction * config.random());
  return {
    short: (reason, options) => busy(jittered(config.poll.shortMs), reason, options),
    long: (reason, options) => busy(jittered(config.poll.longMs), reason, options),
    shortMs: () => jittered(config.poll.shortMs),
  };
}
