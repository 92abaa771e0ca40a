import { REBOOT_ANNOTATION_PREFIX } from '../../../api/annotations.ts';
import { NeedsRegistrationError } from '../../../provisioner/result.ts';
import { complete, continueAfter, failed } from '../action.ts';
import { hasOneShotReboot } from '../annotations.ts';
import { normal } from '../events.ts';
import { clearHostProvisioningSettings } from '../host-status.ts';
import { identityOf, isDeleting } from '../host.ts';
import { note, publish } from '../state-context.ts';
import { adoptDeployedHost } from '../steady-state.ts';
import type { StateHandler } from './handler.ts';
import { stillBusy } from './handler.ts';

/**
 * Removes the deployed image and cleans the disks per automatedCleaningMode. Giving up
 * after repeated failures during deletion is the state machine's rule, not this handler's.
 */
export const handleDeprovisioning: StateHandler = async (host, context) => {
  const status = host.status;
  try {
    if (status.provisioning.image?.url || status.provisioning.customDeploy) {
      // The node may have been re-registered mid-way; adopt it before undeploying.
      const adoption = await adoptDeployedHost(host, context, { deprovisioning: true });
      if (adoption) return adoption;
    }
    const result = await context.provisioner.deprovision({
      host: identityOf(host),
      automatedCleaningMode: host.spec.automatedCleaningMode,
      retryAfterFailure: status.errorType === 'provisioning error',
    });
    if (result.kind === 'failed') return failed('provisioning error', result.message);
    if (result.kind === 'busy') return stillBusy(host, result);
  } catch (error) {
    // Nothing registered and nothing to register it with: there is nothing left to clean.
    if (error instanceof NeedsRegistrationError && isDeleting(host) && !context.credentials) {
      note(context, { metric: 'deleteWithoutPoweringOff' });
      return complete('deleting');
    }
    throw error;
  }
  if (hasOneShotReboot(host)) {
    await context.ports.removeAnnotations([REBOOT_ANNOTATION_PREFIX]);
    return continueAfter();
  }
  delete status.provisioning.image;
  delete status.provisioning.customDeploy;
  clearHostProvisioningSettings(status);
  status.errorCount = 0;
  publish(context, normal('DeprovisioningComplete', 'Image deprovisioning completed'));
  return complete(isDeleting(host) ? 'powering off before delete' : 'available');
};
