import { formatDuration } from './format-duration.ts';
import { DELETION_RETRY_COUNT } from './delays.ts';
import type { Host } from './host.ts';
import type { StateContext } from './state-context.ts';

/** How long the deletion has been running and the timeout; undefined when there is no deadline. */
function deletionClock(host: Host, context: StateContext): { elapsedMs: number; timeoutMs: number } | undefined {
  const timeoutMs = context.settings.deletionTimeoutMs;
  const requestedAt = Date.parse(host.metadata.deletionTimestamp ?? '');
  if (!timeoutMs || Number.isNaN(requestedAt)) return undefined;
  return { elapsedMs: context.now().getTime() - requestedAt, timeoutMs };
}

/**
 * Why a deletion step should be skipped now, or undefined to keep trying. Two bounds keep
 * deletion from hanging: BMO's "more than 3 recorded failures", and our deadline since
 * deletionTimestamp, which also covers a provisioner that stays unreachable or busy
 * (transient failures are never recorded, so the count alone would wait forever).
 */
export function deletionDeadlineExceeded(host: Host, context: StateContext): string | undefined {
  const clock = deletionClock(host, context);
  return clock && clock.elapsedMs > clock.timeoutMs ? `deletion has been running for more than ${formatDuration(clock.timeoutMs)}` : undefined;
}

/**
 * Past the deadline the node's removal is forced; this second bound (twice the timeout) is when
 * even that has not worked, e.g. a conductor that never lets go of the node's lock or a
 * provisioner that stays unreachable, and the host is released anyway, with a Warning.
 */
export function forcedRemovalExhausted(host: Host, context: StateContext): string | undefined {
  const clock = deletionClock(host, context);
  if (!clock || clock.elapsedMs <= 2 * clock.timeoutMs) return undefined;
  return `deletion has been running for more than ${formatDuration(2 * clock.timeoutMs)}, forcing the node's removal for the last ${formatDuration(clock.timeoutMs)}`;
}

/**
 * Milliseconds until the next deletion deadline (the timeout, then twice it), or undefined when
 * none is ahead: a host waiting out a backoff is woken then, so the deadline is kept to the second.
 */
export function nextDeletionDeadlineInMs(host: Host, context: StateContext): number | undefined {
  const clock = deletionClock(host, context);
  if (!clock) return undefined;
  const deadline = [clock.timeoutMs, 2 * clock.timeoutMs].find((at) => clock.elapsedMs <= at);
  return deadline === undefined ? undefined : deadline - clock.elapsedMs;
}

export function tooManyFailures(host: Host): string | undefined {
  return host.status.errorCount > DELETION_RETRY_COUNT ? `failed ${host.status.errorCount} times` : undefined;
}
