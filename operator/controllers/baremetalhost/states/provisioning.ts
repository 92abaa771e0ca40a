import { provisioningImageProblem } from '../../../configdrive/index.ts';
import { REBOOT_ANNOTATION_PREFIX } from '../../../api/annotations.ts';
import { complete, continueAfter, failed } from '../action.ts';
import { hasOneShotReboot, rebootRequest } from '../annotations.ts';
import { normal, warning } from '../events.ts';
import { bootModeOf, identityOf, provisioningCancelled } from '../host.ts';
import { note, publish } from '../state-context.ts';
import type { StateHandler } from './handler.ts';
import { stillBusy } from './handler.ts';

/**
 * Deploys spec.image (or the custom deploy step) with its config drive. A recorded
 * failure or a changed/removed image sends the host to deprovisioning; a failure also
 * counts against the per-image retry cap checked in available.
 */
export const handleProvisioning: StateHandler = async (host, context) => {
  const status = host.status;
  if (status.errorType !== undefined || provisioningCancelled(host)) {
    if (status.errorType !== undefined) status.provisioningFailCount += 1;
    return complete('deprovisioning');
  }
  // What this attempt deploys, so a later failure is charged to the right image.
  if (host.spec.image) status.lastAttemptedImage = structuredClone(host.spec.image);

  const imageProblem = provisioningImageProblem(host.spec.image);
  if (imageProblem) return failed('provisioning error', imageProblem);
  const drive = await context.ports.readConfigDrive();
  if (!drive.ok) {
    note(context, { metric: 'hostConfigDataError', dataType: drive.error.key });
    return failed('provisioning error', drive.error.message);
  }

  const pullSecret = await context.ports.readImagePullSecret();
  if (!pullSecret.ok) {
    // BMO's extra event names what is wrong with the Secret; the error event follows from `failed`.
    if (pullSecret.reason) publish(context, warning(pullSecret.reason, pullSecret.message));
    context.log.info('image pull secret unusable', { secret: host.spec.image?.ociAuthSecretName, problem: pullSecret.message });
    return failed('provisioning error', pullSecret.message);
  }

  const result = await context.provisioner.provision({
    host: identityOf(host),
    ...(host.spec.image ? { image: host.spec.image } : {}),
    ...(host.spec.customDeploy ? { customDeploy: host.spec.customDeploy } : {}),
    ...(drive.value ? { configDrive: drive.value } : {}),
    ...(status.provisioning.rootDeviceHints ? { rootDeviceHints: status.provisioning.rootDeviceHints } : {}),
    bootMode: status.provisioning.bootMode ?? bootModeOf(host),
    ...(pullSecret.credentials !== undefined ? { imagePullSecret: pullSecret.credentials } : {}),
    forceReboot: rebootRequest(host, { forcedOnly: true }).requested,
  });
  if (result.kind === 'failed') return failed('provisioning error', result.message);
  if (hasOneShotReboot(host)) {
    // Whatever the reboot asked for, the deploy (re)boots the host anyway.
    await context.ports.removeAnnotations([REBOOT_ANNOTATION_PREFIX]);
    return continueAfter();
  }
  if (result.kind === 'busy') return stillBusy(host, result);

  if (host.spec.image) status.provisioning.image = structuredClone(host.spec.image);
  if (host.spec.customDeploy) status.provisioning.customDeploy = structuredClone(host.spec.customDeploy);
  status.errorCount = 0;
  status.provisioningFailCount = 0;
  publish(context, normal('ProvisioningComplete', `Image provisioning completed for ${host.spec.image?.url ?? ''}`));
  return complete('provisioned');
};
