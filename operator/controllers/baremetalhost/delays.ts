/** BMO's fixed delays, in milliseconds. */
export const DELAYS = {
  /** Unmanaged hosts and detached hosts are looked at again this often. */
  slowPollMs: 10 * 60_000,
  /** A credentials Secret that does not exist yet. */
  missingSecretMs: 10_000,
  /** Retry after a transient provisioner failure (Ironic unreachable, busy), before jitter. */
  transientRetryMs: 10_000,
  /** Waiting for a PreprovisioningImage (its status changes wake the host earlier). */
  preprovisioningImageMs: 5 * 60_000,
  /** BMO looks at each host at rest every minute; here one node list a minute covers them all. */
  atRestSweepMs: 60_000,
  /**
   * A host waiting for an operation the node sweep watches looks at its node itself this often,
   * in case the change slipped past the list (the operator starting between two of its looks).
   */
  watchedWaitBackstopMs: 60_000,
} as const;

/**
 * The node sweep's looks while hosts are busy: as often as every second, as long as a look takes
 * at most 5 % of the time (Ironic's own time is what every host waits for).
 */
export const QUICK_BUSY_SWEEP = { ms: 1_000, lookTimeShare: 0.05 } as const;

/** Failures in the deletion path tolerated before giving up on that step (BMO's `retryCount`). */
export const DELETION_RETRY_COUNT = 3;

/** Default provisioning attempts per image before giving up (BMO `--max-provisioning-retries`). */
export const DEFAULT_MAX_PROVISIONING_RETRIES = 5;
