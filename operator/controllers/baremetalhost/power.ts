import { REBOOT_ANNOTATION_PREFIX } from '../../api/annotations.ts';
import type { Action } from './action.ts';
import { continueAfter, failed, idle, updateThenIdle } from './action.ts';
import { hasOneShotReboot, rebootRequest } from './annotations.ts';
import { errorBackoffLeftMs } from './backoff.ts';
import { handleDataImage } from './data-image.ts';
import { normal, warning } from './events.ts';
import { clearError } from './host-status.ts';
import type { Host } from './host.ts';
import { identityOf, stateOf } from './host.ts';
import { serviceIfNeeded, servicingConsidered } from './servicing.ts';
import type { StateContext } from './state-context.ts';
import { note, publish } from './state-context.ts';
import { stillBusy } from './states/handler.ts';

const SOFT_POWER_OFF_FAILED = 'Continuing with hard poweroff after soft poweroff fails. More details: ';

/**
 * BMO's `manageHostPower` for hosts at rest (available, provisioned, externally
 * provisioned): mirror the observed power state, honour reboot annotations, service
 * firmware changes on the way to power on, and drive the power towards `spec.online`.
 * BMO looks again every minute; here a host at rest is not polled on its own: its spec,
 * annotations, the objects it watches, the node sweep (node-sweep.ts: its node changed) or a
 * resync (SYNC_PERIOD) wake it, and a power change under way is polled as any transient work is.
 */
export async function manageHostPower(host: Host, context: StateContext): Promise<Action> {
  const status = host.status;
  const identity = identityOf(host);
  const observed = await context.provisioner.hardwareState({ host: identity });
  // BMO saves a new observation and comes back to act on it. The rest of this pass works from the
  // draft, which is saved whatever it returns, so it goes on: coming back only read the node again.
  if (observed.poweredOn !== undefined && observed.poweredOn !== status.poweredOn) {
    status.poweredOn = observed.poweredOn;
    if (status.operationalStatus === 'error' && status.errorType === 'power management error') clearError(status);
  }
  const provisioned = stateOf(host) === 'provisioned' || stateOf(host) === 'externally provisioned';
  // BMO's order: the DataImage goes in (or out) while the host is off, before a reboot ends.
  if (provisioned && host.spec.online && !status.poweredOn) {
    const dataImageAction = await handleDataImage(host, context);
    if (dataImageAction !== undefined) return dataImageAction;
  }
  // A one-shot reboot is done once the host is off: drop it and power back on.
  if (!status.poweredOn && hasOneShotReboot(host)) {
    await context.ports.removeAnnotations([REBOOT_ANNOTATION_PREFIX]);
    return continueAfter();
  }
  // A provisioned host being powered on takes the firmware changes its HostUpdatePolicy allows first.
  if (servicingConsidered(host)) {
    const servicing = await serviceIfNeeded(host, context);
    if (servicing) return servicing;
  }
  const reboot = rebootRequest(host, { forcedOnly: !provisioned });
  for (const value of reboot.invalidValues) {
    publish(context, warning('InvalidAnnotationValue', `could not parse reboot annotation (${value}) - invalid json, assuming soft-reboot`));
  }
  const wantOn = host.spec.online && !reboot.requested;
  if (status.poweredOn === wantOn) return idle();
  // A failed change is retried after its backoff, not whenever something wakes the host sooner.
  const backoffLeftMs = errorBackoffLeftMs(status, { errorType: 'power management error', now: context.now() });
  if (backoffLeftMs > 0) return continueAfter(backoffLeftMs);

  // After a failure BMO stops being gentle.
  const mode = status.errorCount > 0 ? 'hard' : reboot.mode;
  // After a power failure the provisioner retries past the error it left behind.
  const force = status.errorType === 'power management error';
  const result = wantOn
    ? await context.provisioner.powerOn({ host: identity, mode: 'hard', force })
    : await context.provisioner.powerOff({ host: identity, mode, force, automatedCleaningMode: host.spec.automatedCleaningMode });
  // With power-off disabled the provisioner rebooted instead, so the reboot is complete.
  if (host.spec.disablePowerOff && hasOneShotReboot(host)) {
    await context.ports.removeAnnotations([REBOOT_ANNOTATION_PREFIX]);
    return continueAfter();
  }
  if (result.kind === 'failed') {
    const clarified = !wantOn && mode === 'soft' && status.errorType !== 'power management error';
    return failed('power management error', clarified ? SOFT_POWER_OFF_FAILED + result.message : result.message);
  }
  if (result.kind === 'busy') {
    // One event and one count per request, not one per reconcile while it is under way.
    if (result.started) {
      note(context, { metric: 'powerChange', on: wantOn });
      publish(context, wantOn ? normal('PowerOn', 'Host powered on') : normal('PowerOff', mode === 'soft' ? 'Host soft powered off' : 'Host powered off'));
    }
    return stillBusy(host, result);
  }
  status.poweredOn = wantOn;
  status.errorCount = 0;
  return updateThenIdle();
}
