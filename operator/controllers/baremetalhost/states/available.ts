import { deepEqual } from '../../../runtime/deep-equal.ts';
import { complete, failed } from '../action.ts';
import { clearError, clearHostProvisioningSettings } from '../host-status.ts';
import { inspectionRefreshRequested, needsProvisioning } from '../host.ts';
import { manageHostPower } from '../power.ts';
import { pendingProvisioningSettings } from '../provisioning-settings.ts';
import type { StateHandler } from './handler.ts';

/** BMO's message when the per-image retry cap stops provisioning. */
export function retryLimitMessage(failCount: number, limit: number): string {
  return `provisioning failed ${failCount} times, retry limit (${limit}) reached; change image or reset provisioningFailCount to retry`;
}

/** Ready for use (`ready` is the legacy name). Waits for an image, watching power meanwhile. */
export const handleAvailable: StateHandler = async (host, context) => {
  const status = host.status;
  if (host.spec.externallyProvisioned) {
    clearHostProvisioningSettings(status);
    return complete('externally provisioned');
  }
  if (inspectionRefreshRequested(host)) return complete('inspecting');
  const pending = pendingProvisioningSettings(host);
  if (!pending.ok) return failed('preparation error', pending.message);
  if (pending.changed || context.firmwareSettingChanges?.length || context.firmwareUpdates?.length) return complete('preparing');

  if (!host.spec.image?.url && status.provisioningFailCount > 0) {
    // The image was withdrawn: the next one starts with a clean slate.
    status.provisioningFailCount = 0;
    delete status.lastAttemptedImage;
  }
  if (!needsProvisioning(host)) return manageHostPower(host, context);

  if (!deepEqual(host.spec.image, status.lastAttemptedImage)) status.provisioningFailCount = 0;
  const limit = context.settings.maxProvisioningRetries;
  if (limit > 0 && status.provisioningFailCount >= limit) {
    return failed('provisioning error', retryLimitMessage(status.provisioningFailCount, limit));
  }
  clearError(status);
  return complete('provisioning');
};
