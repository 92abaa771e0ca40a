/** IPA's cap on the wait between lookups (`lookup_node`'s max_interval). */
export const MAX_LOOKUP_INTERVAL_MS = 30_000;
/**
 * How long lookups stay at the starting interval. A simulated ramdisk is up at once, while a
 * real one boots for a minute, so Ironic may still be finishing the power action that booted it.
 */
export const EAGER_LOOKUP_MS = 60_000;

/**
 * The wait before the next lookup, as IPA backs off (exponentially, up to 30 s) once the first
 * minute has passed: a server left running a ramdisk whose node is gone then asks Ironic twice
 * a minute instead of every second.
 */
export function nextLookupDelayMs(options: { startingIntervalMs: number; previousDelayMs: number | undefined; lookingUpForMs: number }): number {
  const { startingIntervalMs, previousDelayMs, lookingUpForMs } = options;
  if (previousDelayMs === undefined || lookingUpForMs < EAGER_LOOKUP_MS) return startingIntervalMs;
  return Math.min(MAX_LOOKUP_INTERVAL_MS, Math.max(startingIntervalMs, previousDelayMs * 2));
}
