// Construction options of the Ironic provisioner, compiled once into a fully defaulted config.
import type { IronicClient } from '../../../ironic-client/index.ts';
import type { Clock } from '../../runtime/clock.ts';
import { systemClock } from '../../runtime/clock.ts';
import type { Logger } from '../../runtime/logger.ts';

export interface PollIntervals {
  /** Quick transitions: manage, provide, abort, adopt, power, locks (BMO: 3 s). */
  shortMs?: number;
  /** Ramdisk work: inspection, cleaning, deployment (BMO: 10 s). */
  longMs?: number;
  /** Added at random on top of each delay, as a fraction of it (BMO: 0.25). */
  jitterFraction?: number;
}

export interface IronicProvisionerOptions {
  client: IronicClient;
  /** DEPLOY_KERNEL_URL / DEPLOY_RAMDISK_URL: the IPA ramdisk for inspection, cleaning and deployment. */
  deployKernelUrl?: string;
  deployRamdiskUrl?: string;
  /** DEPLOY_ISO_URL: used instead of kernel/ramdisk for virtual-media BMCs. */
  deployIsoUrl?: string;
  /**
   * BMO's --build-preprov-image: hosts get their ramdisk from a PreprovisioningImage, so the
   * configured DEPLOY_* images are not used (only DEPLOY_KERNEL_URL, for an initrd image without
   * a kernel of its own), and inspection, preparing, cleaning and servicing wait for the image.
   * @default false
   */
  preprovisioningImageBuilder?: boolean;
  log: Logger;
  clock?: Clock;
  /** Random source in [0, 1) for jitter; injectable for tests. @default Math.random */
  random?: () => number;
  pollIntervals?: PollIntervals;
  /** PROVISIONING_NETWORK_DISABLED: BMCs that need DHCP/PXE are refused. @default false */
  provisioningNetworkDisabled?: boolean;
  /** LIVE_ISO_FORCE_PERSISTENT_BOOT_DEVICE / DIRECT_DEPLOY_FORCE_PERSISTENT_BOOT_DEVICE. */
  forcePersistentBootDevice?: { liveIso?: string; directDeploy?: string };
  /**
   * A node read from Ironic is reused for this long, so the register call and the state call
   * of one reconcile share one GET (BMO caches the node per reconcile). Any write through this
   * provisioner drops it. Kept below the short poll interval. 0 disables. @default 1000
   */
  nodeCacheTtlMs?: number;
  /**
   * How long the ports of a node are trusted to exist once seen or created. A missing or expired
   * record is checked against one list of every port, shared by all hosts and begun at most a
   * tenth of this ago. 0 keeps no record: every pass lists the node's own ports. @default 600000
   */
  portCacheTtlMs?: number;
  /**
   * After a power change, or a manage, provide, deploy or undeploy, that this provisioner asked
   * for, the node sweep's list showing it ended as asked (with the node as read before the
   * request; settled-changes.ts) stands in for the next read, while that read is
   * at most this old: a change someone else made meanwhile to a field the list does not carry is
   * then found on the read after. A host at rest reads its node only at a resync (hours), so
   * minutes here are well inside that; at 500 hosts the pass that confirms the change waits
   * 1-2 minutes in the queue. 0 disables. @default 300000
   */
  settledCopyMaxAgeMs?: number;
}

export interface IronicProvisionerConfig {
  client: IronicClient;
  deployImages: { kernelUrl: string; ramdiskUrl: string; isoUrl: string };
  preprovisioningImageBuilder: boolean;
  log: Logger;
  clock: Clock;
  random: () => number;
  poll: Required<PollIntervals>;
  provisioningNetworkDisabled: boolean;
  forcePersistentBootDevice: { liveIso?: string; directDeploy?: string };
  nodeCacheTtlMs: number;
  portCacheTtlMs: number;
  settledCopyMaxAgeMs: number;
}

function nonNegative(name: string, value: number): number {
  if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`${name} must be a non-negative number, got ${value}`);
  return value;
}

export function compileOptions(options: IronicProvisionerOptions): IronicProvisionerConfig {
  const poll = {
    shortMs: nonNegative('pollIntervals.shortMs', options.pollIntervals?.shortMs ?? 3_000),
    longMs: nonNegative('pollIntervals.longMs', options.pollIntervals?.longMs ?? 10_000),
    jitterFraction: nonNegative('pollIntervals.jitterFraction', options.pollIntervals?.jitterFraction ?? 0.25),
  };
  const nodeCacheTtlMs = nonNegative('nodeCacheTtlMs', options.nodeCacheTtlMs ?? 1_000);
  return {
    client: options.client,
    deployImages: {
      kernelUrl: options.deployKernelUrl ?? '',
      ramdiskUrl: options.deployRamdiskUrl ?? '',
      isoUrl: options.deployIsoUrl ?? '',
    },
    preprovisioningImageBuilder: options.preprovisioningImageBuilder ?? false,
    log: options.log,
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
    poll,
    provisioningNetworkDisabled: options.provisioningNetworkDisabled ?? false,
    forcePersistentBootDevice: options.forcePersistentBootDevice ?? {},
    // A cached node must never outlive the shortest poll, or a poll would see no progress.
    nodeCacheTtlMs: Math.min(nodeCacheTtlMs, poll.shortMs / 2),
    portCacheTtlMs: nonNegative('portCacheTtlMs', options.portCacheTtlMs ?? 600_000),
    settledCopyMaxAgeMs: nonNegative('settledCopyMaxAgeMs', options.settledCopyMaxAgeMs ?? 300_000),
  };
}
