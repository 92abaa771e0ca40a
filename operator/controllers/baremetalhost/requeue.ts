import type { Result } from '../../runtime/reconciler.ts';
import type { Action } from './action.ts';
import { errorBackoffMs } from './backoff.ts';

/** When to look at the host again after an action (BMO's actionResult.Result). */
export function requeueFor(action: Action, options: { errorCount: number; random: () => number }): Result {
  switch (action.kind) {
    case 'continue':
    case 'update':
      // No delay means "again now"; the work queue's rate limiter keeps that from spinning.
      return action.afterMs !== undefined && action.afterMs > 0 ? { requeueAfter: action.afterMs } : { requeue: true };
    case 'complete':
      return { requeue: true };
    case 'failed':
      return { requeueAfter: errorBackoffMs(options.errorCount, options.random) };
    case 'delayed':
      return { requeueAfter: errorBackoffMs(1, options.random) };
    case 'deleted':
      return {};
  }
}
