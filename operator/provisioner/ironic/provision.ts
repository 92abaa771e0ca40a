// Provision: make the node available, write instance settings, validate, and deploy with the
// config drive (BMO's Provision and setUpForProvisioning).
import type { DeployStep, Node } from '../../../ironic-client/index.ts';
import { imageChecksum, instanceSettings, provisioningImageProblem } from '../../configdrive/index.ts';
import type { ProvisionOptions } from '../provisioner.ts';
import { done, failed } from '../result.ts';
import type { ProvisionerResult } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { writeRefused } from './ironic-errors.ts';
import type { NotDone } from './ironic-errors.ts';
import { NodePatch } from './node-patch.ts';
import { loadHostNode } from './node-lookup.ts';
import { changeProvisionState, patchNode, retryFromCleanFailed } from './node-writes.ts';
import { ironicHasSameImage } from './same-image.ts';

/** Runs a site-specific deploy step instead of writing an image (custom-agent). */
const CUSTOM_DEPLOY_PRIORITY = 80;

function instancePatch(context: ProvisionerContext, node: Node, options: ProvisionOptions): NodePatch {
  const settings = instanceSettings({
    uid: options.host.uid,
    image: options.image,
    bootMode: options.bootMode,
    rootDeviceHints: options.rootDeviceHints,
    customDeployMethod: options.customDeploy?.method,
    imagePullSecret: options.imagePullSecret,
    currentDeployInterface: node.deploy_interface ?? undefined,
    forcePersistentBootDevice: context.config.forcePersistentBootDevice,
  });
  return new NodePatch()
    .field('instance_uuid', settings.instanceUuid, node.instance_uuid)
    .section('instance_info', settings.instanceInfo, node.instance_info)
    .field('deploy_interface', settings.deployInterface, node.deploy_interface)
    .section('driver_info', settings.driverInfo, node.driver_info);
}

/** Boot and deploy interfaces must accept the settings; `null` means the check does not apply. */
async function validationProblem(context: ProvisionerContext, node: Node): Promise<string | undefined | NotDone> {
  let validation;
  try {
    validation = await context.client.nodes.validate(node.uuid);
  } catch (error) {
    return writeRefused('failed to validate host', error, context.delays);
  }
  const reasons = [validation['boot'], validation['deploy']]
    .filter((result) => result?.result === false)
    .map((result) => result?.reason ?? 'unknown reason');
  return reasons.length > 0 ? `host validation error: ${reasons.join('; ')}` : undefined;
}

async function startDeployment(context: ProvisionerContext, node: Node, options: ProvisionOptions): Promise<ProvisionerResult> {
  const patched = await patchNode(context, node, instancePatch(context, node, options), 'failed to update host settings in ironic');
  if (patched.kind !== 'patched') return patched;
  const problem = await validationProblem(context, patched.node);
  if (typeof problem === 'string') return failed(problem);
  if (problem !== undefined) return problem;
  const deploySteps: DeployStep[] | undefined = options.customDeploy?.method
    ? [{ interface: 'deploy', step: options.customDeploy.method, args: {}, priority: CUSTOM_DEPLOY_PRIORITY }]
    : undefined;
  context.log.info('starting provisioning', { image: options.image?.url, customDeploy: options.customDeploy?.method });
  return changeProvisionState(context, patched.node, {
    target: 'deploy',
    ...(options.configDrive !== undefined ? { configdrive: options.configDrive } : {}),
    ...(deploySteps !== undefined ? { deploySteps } : {}),
  }, { pollsItself: options.forceReboot });
}

/** How long a failed deployment may go without an error message before it is reported without one. */
const ERROR_MESSAGE_GRACE_MS = 10_000;

function deployFailure(node: Node, options: ProvisionOptions): string {
  const url = options.image?.url ?? '';
  const checksum = options.image !== undefined ? imageChecksum(options.image) : undefined;
  const withChecksum = checksum?.ok && checksum.checksum !== '' ? `, checksum: ${checksum.checksum}` : '';
  return `Image provisioning failed (url: ${url}${withChecksum}): ${node.last_error || 'Ironic recorded no error message'}`;
}

/**
 * BMO waits for last_error, which Ironic writes right after the state; it never waits long, so
 * a failure that stays without a message is reported rather than polled for ever.
 */
function errorMessageOverdue(context: ProvisionerContext, node: Node): boolean {
  const since = Date.parse(node.provision_updated_at ?? '');
  return Number.isNaN(since) || context.config.clock.now() - since >= ERROR_MESSAGE_GRACE_MS;
}

export async function provision(context: ProvisionerContext, options: ProvisionOptions): Promise<ProvisionerResult> {
  const node = await loadHostNode(context, options.host);
  const invalid = provisioningImageProblem(options.image);
  if (invalid !== undefined) return failed(invalid);

  switch (node.provision_state) {
    case 'deploy failed':
      // Ironic recorded an error for this very image: stop. Another image gets a new attempt.
      if (ironicHasSameImage(node, options.image)) {
        if (!node.last_error && !errorMessageOverdue(context, node)) return context.delays.short('deployment failed, waiting for the error message');
        return failed(deployFailure(node, options));
      }
      context.log.info('recovering from previous failure');
      return startDeployment(context, node, options);
    case 'manageable':
      return changeProvisionState(context, node, { target: 'provide' });
    case 'clean failed':
      return retryFromCleanFailed(context, node);
    case 'available':
      return startDeployment(context, node, options);
    case 'active':
      context.log.info('finished provisioning');
      return done();
    case 'wait call-back':
      if (options.forceReboot) {
        context.log.info('aborting provisioning to force reboot of preprovisioning image');
        return changeProvisionState(context, node, { target: 'undeploy' });
      }
      return context.delays.long('waiting for the deploy ramdisk', { awaitsNodeChange: true });
    default:
      // A forced reboot undeploys at wait call-back, which the node list does not tell apart from deploying.
      return context.delays.long(`waiting for host to become active or available (${node.provision_state})`, { awaitsNodeChange: !options.forceReboot });
  }
}
