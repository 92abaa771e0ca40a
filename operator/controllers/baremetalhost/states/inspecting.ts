import { INSPECT_ANNOTATION, REBOOT_ANNOTATION_PREFIX } from '../../../api/annotations.ts';
import { complete, continueAfter, failed } from '../action.ts';
import { rebootRequest } from '../annotations.ts';
import { hostArchitecture } from '../architecture.ts';
import { normal } from '../events.ts';
import { clearError } from '../host-status.ts';
import { annotationsOf, bootModeOf, identityOf, inspectionDisabled, inspectionRefreshRequested, isDeleting } from '../host.ts';
import { publish } from '../state-context.ts';
import type { StateHandler } from './handler.ts';
import { stillBusy } from './handler.ts';

/** Runs (or polls) hardware inspection; stores the result in status.hardware and HardwareData. */
export const handleInspecting: StateHandler = async (host, context) => {
  if (inspectionDisabled(host)) {
    publish(context, normal('InspectionSkipped', 'disabled by user'));
    host.status.errorCount = 0;
    return complete('preparing');
  }
  const result = await context.provisioner.inspect({
    host: identityOf(host),
    mode: host.spec.inspectionMode === 'fast' ? 'fast' : 'agent',
    retryAfterFailure: host.status.errorType === 'inspection error',
    refresh: inspectionRefreshRequested(host),
    forceReboot: rebootRequest(host, { forcedOnly: true }).requested,
    bootMode: host.status.provisioning.bootMode ?? bootModeOf(host),
    architecture: hostArchitecture(host),
    ...(context.credentials ? { bmc: context.credentials.access } : {}),
  });
  if (result.kind === 'failed') return failed('inspection error', result.message);
  if (result.kind === 'busy' && result.started) {
    // A new inspection is under way (or an old one was aborted): the requests are consumed.
    const consumed = [INSPECT_ANNOTATION, REBOOT_ANNOTATION_PREFIX].filter((key) => key in annotationsOf(host));
    if (consumed.length > 0) {
      await context.ports.removeAnnotations(consumed);
      return continueAfter();
    }
  }
  if (result.kind === 'busy') return stillBusy(host, result);

  clearError(host.status);
  host.status.hardware = result.value.hardware;
  if (!isDeleting(host)) await context.ports.replaceHardwareData(result.value.hardware);
  host.status.errorCount = 0;
  publish(context, normal('InspectionComplete', 'Hardware inspection completed'));
  return complete('preparing');
};
