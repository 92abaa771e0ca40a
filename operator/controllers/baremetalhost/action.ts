import type { ErrorType } from '../../api/error-type.ts';
import type { ProvisioningState } from '../../api/provisioning-state.ts';
import type { Busy } from '../../provisioner/result.ts';

/**
 * What one pass of a state handler decided. The state machine turns it into a state
 * change, the reconciler into one status patch, events, metrics and a requeue. Status
 * changes a handler made on its draft are saved whenever they differ from the stored
 * status, whatever the kind; `update` only says "save and look again soon".
 */
export type Action =
  /**
   * Still working; poll again after `afterMs` (or at once, rate limited, without it). `idle`: the
   * host is at rest and is looked at again only when something asks (a change, a resync).
   * `awaitsNodeChange`: the provisioner's operation ending is all the host waits for (Busy's).
   */
  | { kind: 'continue'; afterMs?: number; idle?: true; awaitsNodeChange?: true }
  /** Status changed; save it and poll again after `afterMs` (or at once), or only when asked (`idle`). */
  | { kind: 'update'; afterMs?: number; idle?: true }
  /** This state is done: move to `next` and reconcile again at once. */
  | { kind: 'complete'; next: ProvisioningState }
  /** The phase failed: record it (operationalStatus error, errorCount + 1) and retry after a backoff. */
  | { kind: 'failed'; errorType: ErrorType; message: string }
  /** No provisioning capacity: operationalStatus delayed, retry in 1-2 minutes. */
  | { kind: 'delayed' }
  /** The provisioner forgot the host; release what it holds and let Kubernetes delete it. */
  | { kind: 'deleted' };

export const continueAfter = (afterMs?: number): Action => (afterMs === undefined ? { kind: 'continue' } : { kind: 'continue', afterMs });
/** The provisioner is still at it: poll when it said, and say whether its node list may stand in. */
export const waitFor = (result: Busy): Action =>
  result.awaitsNodeChange ? { kind: 'continue', afterMs: result.afterMs, awaitsNodeChange: true } : { kind: 'continue', afterMs: result.afterMs };
export const update = (afterMs?: number): Action => (afterMs === undefined ? { kind: 'update' } : { kind: 'update', afterMs });
/** At rest (steady states): nothing to poll until the host, its inputs or a resync wake it. */
export const idle = (): Action => ({ kind: 'continue', idle: true });
export const updateThenIdle = (): Action => ({ kind: 'update', idle: true });
export const complete = (next: ProvisioningState): Action => ({ kind: 'complete', next });
export const failed = (errorType: ErrorType, message: string): Action => ({ kind: 'failed', errorType, message });
export const delayed = (): Action => ({ kind: 'delayed' });
export const deleted = (): Action => ({ kind: 'deleted' });
