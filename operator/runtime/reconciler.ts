import type { Duration } from './duration.ts';
import type { ObjectName } from './kube-object.ts';
import type { Logger } from './logger.ts';

/** What to reconcile: only a name. Reconciliation is level-triggered; read the current state. */
export type Request = ObjectName;

/**
 * When to look again. `{}` (or nothing) means done until something changes.
 * `requeueAfter` (ms or e.g. `'30s'`) polls later and resets the failure backoff;
 * `requeue: true` asks for a rate-limited retry without it being an error.
 */
export interface Result {
  requeueAfter?: Duration;
  requeue?: boolean;
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
