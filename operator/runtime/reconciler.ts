import type { Duration } from './duration.ts';
import type { ObjectName } from './kube-object.ts';
import type { Logger } from './logger.ts';

/** What to reconcile: only a name. Reconciliation is level-triggered; read the current state. */
export type Request = ObjectName;

/**
 * When to look again. `{}` (or nothing) means done until something changes.
 * `requeueAfter` (ms or e.g. `'30s'`) polls later and resets the failure backoff;
 * `requeue: true` asks for a rate-limited retry without it being an error (waiting for
 * something, each one counts towards the per-item backoff);
 * `requeueNow: true` says the pass made progress (it saved a change) and there is more to do:
 * the key runs again at once with its failure backoff forgotten, as controller-runtime forgets
 * an item that succeeded. Neither rate limit applies: a long life of progress steps must not
 * build up a backoff (1000 deleted hosts once waited minutes per step), and the overall
 * 10 qps bucket, a guard against failure storms, must not pace N hosts' normal progress.
 */
export interface Result {
  requeueAfter?: Duration;
  requeue?: boolean;
  requeueNow?: boolean;
}

export interface ReconcileContext {
  /** Aborts on shutdown or lost leadership: stop promptly and let the next run finish. */
  signal: AbortSignal;
  /** Carries `controller`, `object`, `namespace`, `name` and `reconcileID`. */
  log: Logger;
  reconcileID: string;
  controller: string;
}

/**
 * controller-runtime's contract: one key in, a Result (or nothing) out. Throw a
 * TerminalError for failures retrying cannot fix; any other error is retried with backoff.
 */
export interface Reconciler {
  reconcile(request: Request, context: ReconcileContext): Promise<Result | void>;
}

export type ReconcileFunc = Reconciler['reconcile'];

export function asReconciler(reconciler: Reconciler | ReconcileFunc): Reconciler {
  return typeof reconciler === 'function' ? { reconcile: reconciler } : reconciler;
}
