import type { Action } from './action.ts';
import { continueAfter, failed, update } from './action.ts';
import { detachedArguments } from './annotations.ts';
import { DELAYS } from './delays.ts';
import { warning } from './events.ts';
import { clearError } from './host-status.ts';
import type { Host } from './host.ts';
import { hasDetachedAnnotation, identityOf, stateOf } from './host.ts';
import type { StateContext } from './state-context.ts';
import { publish } from './state-context.ts';

const DETACHABLE = new Set(['provisioned', 'externally provisioned', 'ready', 'available']);

/** Whether the detached annotation detaches the host now: at rest, or anywhere with `force`. */
export function detachesNow(host: Host): boolean {
  if (!hasDetachedAnnotation(host)) return false;
  if (DETACHABLE.has(stateOf(host))) return true;
  const args = detachedArguments(host);
  return args?.ok === true && args.value.force === true;
}

async function detachHost(host: Host, context: StateContext, options: { force: boolean }): Promise<Action> {
  const status = host.status;
  const result = await context.provisioner.detach({ host: identityOf(host), force: options.force });
  if (result.kind === 'failed') return failed('detach error', result.message);
  if (result.kind === 'busy') {
    if (status.errorType === 'detach error') clearError(status);
    return continueAfter(result.afterMs);
  }
  if (status.errorType === 'detach error') {
    clearError(status);
    status.errorCount = 0;
  }
  if (status.operationalStatus !== 'detached') {
    status.operationalStatus = 'detached';
    context.log.info('host is detached, removed from provisioner');
    return update(DELAYS.slowPollMs);
  }
  return continueAfter(DELAYS.slowPollMs);
}

/**
 * BMO's `checkDetachedHost`: with the detached annotation the node leaves the provisioner
 * without deprovisioning (only at rest, unless `force`); once it is removed, the host
 * goes back to OK (or error) and is registered and adopted again.
 */
export async function checkDetachedHost(host: Host, context: StateContext): Promise<Action | undefined> {
  const status = host.status;
  if (hasDetachedAnnotation(host)) {
    const state = stateOf(host);
    if (DETACHABLE.has(state)) return detachHost(host, context, { force: false });
    if (state !== 'deleting') {
      const args = detachedArguments(host);
      if (args && !args.ok) {
        // BMO ignores a bad value (documented as free-form); we at least say so.
        publish(context, warning('InvalidAnnotationValue', `ignoring detached annotation value: ${args.message}`));
      }
      if (args?.ok && args.value.force) return detachHost(host, context, { force: true });
      context.log.debug('host cannot be detached yet, waiting for the current operation to finish', { state });
    }
  }
  if (status.errorType === 'detach error') {
    clearError(status);
    status.errorCount = 0;
    return update();
  }
  if (status.operationalStatus === 'detached') {
    status.operationalStatus = status.errorType !== undefined ? 'error' : 'OK';
    return update();
  }
  return undefined;
}
