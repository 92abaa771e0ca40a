import type { BareMetalHostStatus } from '../../api/baremetalhost.ts';
import type { ErrorType } from '../../api/error-type.ts';
import type { OperationalStatus } from '../../api/operational-status.ts';

/** Removes any recorded error and sets `operationalStatus`; true when something changed. */
export function clearErrorWithStatus(status: BareMetalHostStatus, operationalStatus: OperationalStatus): boolean {
  let changed = false;
  if (status.operationalStatus !== operationalStatus) {
    status.operationalStatus = operationalStatus;
    changed = true;
  }
  if (status.errorType !== undefined) {
    delete status.errorType;
    changed = true;
  }
  if (status.errorMessage !== '') {
    status.errorMessage = '';
    changed = true;
  }
  return changed;
}

/** BMO's `clearError`: back to OK. The errorCount stays until a phase succeeds. */
export function clearError(status: BareMetalHostStatus): boolean {
  return clearErrorWithStatus(status, 'OK');
}

/** BMO's `setErrorMessage`: there is no error state, only an error recorded in the current one. */
export function recordError(status: BareMetalHostStatus, errorType: ErrorType, message: string): void {
  status.operationalStatus = 'error';
  status.errorType = errorType;
  status.errorMessage = message;
  status.errorCount += 1;
}

/** Forgets settings that do not force re-provisioning, so preparing applies them again. */
export function clearHostProvisioningSettings(status: BareMetalHostStatus): void {
  delete status.provisioning.rootDeviceHints;
  // Hardware RAID volumes stay: configuring the same hardware RAID again is slow and pointless.
  if (status.provisioning.raid) delete status.provisioning.raid.softwareRAIDVolumes;
  delete status.provisioning.firmware;
}
