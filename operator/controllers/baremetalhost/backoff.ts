import type { ErrorType } from '../../api/error-type.ts';

/** The exponent stops here, so the longest wait is about 8.5 hours. */
export const MAX_BACKOFF_COUNT = 9;

/**
 * BMO's `calculateBackoff`: 2^errorCount minutes minus up to half of it at random, so
 * hosts that failed together do not retry together. 1 ⇒ 1-2 min, 2 ⇒ 2-4 min … 9 ⇒ 4h16m-8h32m.
 */
export function errorBackoffMs(errorCount: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(errorCount, 0), MAX_BACKOFF_COUNT);
  const base = 2 ** exponent;
  return Math.round((base - random() * base * 0.5) * 60_000);
}

/** The shortest wait `errorBackoffMs` gives for this count: a retry sooner than this is early. */
export function shortestErrorBackoffMs(errorCount: number): number {
  return errorBackoffMs(errorCount, () => 1);
}

/** Spreads a short delay by up to +25 %, like BMO's Ironic poll delays. */
export function withJitter(delayMs: number, random: () => number = Math.random): number {
  return Math.round(delayMs * (1 + 0.25 * random()));
}

/**
 * How much longer a host whose last recorded failure was `errorType` waits before it retries:
 * BMO retries only when the requeue after the failure comes, and a pass woken sooner (its node
 * changing as the failure is recorded, see node-sweep.ts) must not retry at once. Zero or less
 * when the retry may go ahead, or when the status records another error or no write time.
 */
export function errorBackoffLeftMs(status: { errorType?: ErrorType | undefined; errorCount: number; lastUpdated?: string | undefined }, options: { errorType: ErrorType; now: Date }): number {
  if (status.errorType !== options.errorType || !status.lastUpdated) return 0;
  return shortestErrorBackoffMs(status.errorCount) - (options.now.getTime() - Date.parse(status.lastUpdated));
}
