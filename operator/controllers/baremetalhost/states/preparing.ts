import { complete, failed, waitFor } from '../action.ts';
import { clearError, clearHostProvisioningSettings } from '../host-status.ts';
import { identityOf } from '../host.ts';
import { pendingProvisioningSettings, saveProvisioningSettings } from '../provisioning-settings.ts';
import type { StateHandler } from './handler.ts';

/**
 * Applies RAID, root device hints and HostFirmwareSettings changes (manual cleaning in Ironic). The provisioner gets the
 * target and what status says was applied; status takes the target once the work has
 * started (or turned out unnecessary), so polling never starts it twice. After a failed
 * clean nothing counts as applied.
 */
export const handlePreparing: StateHandler = async (host, context) => {
  const pending = pendingProvisioningSettings(host);
  if (!pending.ok) return failed('preparation error', pending.message);
  const retrying = host.status.errorType === 'preparation error';
  const target = pending.status.provisioning;
  const applied = host.status.provisioning.raid;
  const result = await context.provisioner.prepare({
    host: identityOf(host),
    ...(target.raid ? { raid: target.raid } : {}),
    ...(!retrying && applied ? { actualRaid: applied } : {}),
    ...(target.rootDeviceHints ? { rootDeviceHints: target.rootDeviceHints } : {}),
    retryAfterFailure: retrying,
    ...(context.credentials ? { bmc: context.credentials.access } : {}),
    ...(context.firmwareSettingChanges?.length ? { firmwareSettings: context.firmwareSettingChanges } : {}),
    ...(context.firmwareUpdates?.length ? { firmwareUpdates: context.firmwareUpdates } : {}),
  });
  // Recorded once started, so the next passes do not start the updates again.
  if (result.kind === 'busy' && result.started && context.firmwareUpdates?.length) await context.ports.recordFirmwareUpdates(context.firmwareUpdates);
  const changed = pending.changed || retrying;
  if (result.kind === 'failed') {
    // Forget what was (partly) applied so the next attempt starts over.
    if (changed) clearHostProvisioningSettings(host.status);
    return failed('preparation error', result.message);
  }
  if (changed && (result.kind === 'done' || result.started)) saveProvisioningSettings(host, host.status);
  if (result.kind === 'busy') {
    if (result.started) clearError(host.status);
    return waitFor(result);
  }
  clearError(host.status);
  host.status.errorCount = 0;
  return complete('available');
};
