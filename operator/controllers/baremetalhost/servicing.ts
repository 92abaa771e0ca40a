// BMO's doServiceIfNeeded: firmware changes on a provisioned host, through the provisioner's
// servicing, when the host's HostUpdatePolicy says `onReboot` and the host is being powered on.
import type { HostUpdatePolicySpec } from '../../api/hostupdatepolicy.ts';
import type { ServiceOptions } from '../../provisioner/provisioner.ts';
import type { Action } from './action.ts';
import { continueAfter, failed, update } from './action.ts';
import { clearErrorWithStatus } from './host-status.ts';
import type { Host } from './host.ts';
import { identityOf, stateOf } from './host.ts';
import type { StateContext } from './state-context.ts';

type ServicingChanges = Pick<ServiceOptions, 'firmwareSettings' | 'firmwareUpdates' | 'hasFirmwareSpec'>;

/** What the policy lets servicing apply: pending changes of each kind set to `onReboot`, nothing without a policy. */
export function servicingChanges(policy: HostUpdatePolicySpec | undefined, context: Pick<StateContext, 'firmwareSettingChanges' | 'firmwareUpdates' | 'firmwareSpec'>): ServicingChanges {
  const settingsAllowed = policy?.firmwareSettings === 'onReboot';
  const updatesAllowed = policy?.firmwareUpdates === 'onReboot';
  const settings = settingsAllowed ? (context.firmwareSettingChanges ?? []) : [];
  const updates = updatesAllowed ? (context.firmwareUpdates ?? []) : [];
  return {
    ...(settings.length ? { firmwareSettings: settings } : {}),
    ...(updates.length ? { firmwareUpdates: updates } : {}),
    hasFirmwareSpec: (settingsAllowed && Boolean(context.firmwareSpec?.settings)) || (updatesAllowed && Boolean(context.firmwareSpec?.updates)),
  };
}

/**
 * BMO's rule for when servicing is looked at: a provisioned host about to be powered on
 * (a reboot's power-on or `online` back to true), or one already servicing or failed at it.
 */
export function servicingConsidered(host: Host): boolean {
  const status = host.status;
  const provisioned = stateOf(host) === 'provisioned' || stateOf(host) === 'externally provisioned';
  const poweringOn = provisioned && !status.poweredOn && host.spec.online;
  return poweringOn || status.operationalStatus === 'servicing' || status.errorType === 'servicing error';
}

/**
 * Runs servicing when the policy allows pending changes, and follows a servicing under way to
 * its end. Undefined when there is nothing to service, so power management goes on.
 */
export async function serviceIfNeeded(host: Host, context: StateContext): Promise<Action | undefined> {
  const status = host.status;
  const changes = servicingChanges(await context.ports.acquireUpdatePolicy(), context);
  const changesPending = Boolean(changes.firmwareSettings?.length || changes.firmwareUpdates?.length);
  // Even without changes, a servicing under way (or failed) must be followed to its end.
  if (!changesPending && status.operationalStatus !== 'servicing' && status.errorType !== 'servicing error') return undefined;
  if (status.operationalStatus !== 'servicing') {
    // Saved before the provisioner is asked, so the status says why the host is not powering on.
    status.operationalStatus = 'servicing';
    return update();
  }
  const result = await context.provisioner.service({
    host: identityOf(host),
    ...changes,
    changesPending,
    retryAfterFailure: status.errorType === 'servicing error',
  });
  if (result.kind === 'failed') return failed('servicing error', result.message);
  const dirty = clearErrorWithStatus(status, 'servicing');
  // Recorded once started, so the next passes do not flash the same updates again.
  if (result.kind === 'busy' && result.started && changes.firmwareUpdates?.length) await context.ports.recordFirmwareUpdates(changes.firmwareUpdates);
  if (result.kind === 'busy') return dirty ? update(result.afterMs) : continueAfter(result.afterMs);
  if (dirty) return update();
  context.log.info('servicing finished');
  clearErrorWithStatus(status, 'OK');
  status.errorCount = 0;
  // At once: the next pass records the power state servicing left behind.
  return update();
}
