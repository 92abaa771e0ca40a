import { formatDuration } from './format-duration.ts';
import { DELETION_RETRY_COUNT } from './delays.ts';
import type { Host } from './host.ts';
import type { StateContext } from './state-context.ts';

/**
 * Why a deletion step should be skipped now, or undefined to keep trying. Two bounds keep
 * deletion from hanging: BMO's "more than 3 recorded failures", and our deadline since
 * deletionTimestamp, which also covers a provisioner that stays unreachable or busy
 * (transient failures are never recorded, so the count alone would wait forever).
 */
export function deletionDeadlineExceeded(host: Host, context: StateContext): string | undefined {
  const timeoutMs = context.settings.deletionTimeoutMs;
  const requestedAt = Date.parse(host.metadata.deletionTimestamp ?? '');
  if (!timeoutMs || Number.isNaN(requestedAt)) return undefined;
  const elapsedMs = context.now().getTime() - requestedAt;
  return elapsedMs > timeoutMs ? `deletion has been running for more than ${formatDuration(timeoutMs)}` : undefined;
}

/**
 * Past the deadline the node's removal is forced; this second bound (twice the timeout) is when
 * even that has not worked, e.g. a conductor that never lets go of the node's lock or a
 * provisioner that stays unreachable, and the host is released anyway, with a Warning.
 */
export function forcedRemovalExhausted(host: Host, context: StateContext): string | undefined {
  const timeoutMs = context.settings.deletionTimeoutMs;
  const requestedAt = Date.parse(host.metadata.deletionTimestamp ?? '');
  if (!timeoutMs || Number.isNaN(requestedAt)) return undefined;
  const elapsedMs = context.now().getTime() - requestedAt;
  return elapsedMs > 2 * timeoutMs
    ? `deletion has been running for more than ${formatDuration(2 * timeoutMs)}, forcing the node's removal for the last ${formatDuration(timeoutMs)}`
    : undefined;
}

export function tooManyFailures(host: Host): string | undefined {
  return host.status.errorCount > DELETION_RETRY_COUNT ? `failed ${host.status.errorCount} times` : undefined;
}
