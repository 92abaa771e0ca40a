import type { Result } from '../../runtime/reconciler.ts';
import type { Action } from './action.ts';
import { errorBackoffMs } from './backoff.ts';

/** When to look at the host again after an action (BMO's actionResult.Result). */
export function requeueFor(action: Action, options: { errorCount: number; random: () => number }): Result {
  switch (action.kind) {
    case 'continue':
    case 'update':
      if (action.idle) return {};
      // No delay means "again now": every such action follows a saved change (status,
      // annotations), so it is progress, not a retry that should back off.
      return action.afterMs !== undefined && action.afterMs > 0 ? { requeueAfter: action.afterMs } : { requeueNow: true };
    case 'complete':
      return { requeueNow: true };
    case 'failed':
      return { requeueAfter: errorBackoffMs(options.errorCount, options.random) };
    case 'delayed':
      return { requeueAfter: errorBackoffMs(1, options.random) };
    case 'deleted':
      return {};
  }
}

/** How long after a deadline the host is looked at, so the deadline has passed by then. */
const PAST_DEADLINE_MS = 1_000;

/** A wait that would outlast a deadline `inMs` away ends just after it instead. */
export function wakeByDeadline(result: Result, inMs: number | undefined): Result {
  if (inMs === undefined || typeof result.requeueAfter !== 'number') return result;
  const latest = inMs + PAST_DEADLINE_MS;
  return result.requeueAfter > latest ? { ...result, requeueAfter: latest } : result;
}
