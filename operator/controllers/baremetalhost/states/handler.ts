import type { Busy } from '../../../provisioner/result.ts';
import type { Action } from '../action.ts';
import { waitFor } from '../action.ts';
import { clearError } from '../host-status.ts';
import type { Host } from '../host.ts';
import type { StateContext } from '../state-context.ts';

/**
 * One state's step: ask the provisioner, change the status draft, say what happens next.
 * Provisioner calls may throw TransientProvisionerError; the reconciler retries those
 * without recording an error.
 */
export type StateHandler = (host: Host, context: StateContext) => Promise<Action>;

/** The provisioner is still at it: whatever error was recorded is stale now, so clear it and poll. */
export function stillBusy(host: Host, result: Busy): Action {
  clearError(host.status);
  return waitFor(result);
}
