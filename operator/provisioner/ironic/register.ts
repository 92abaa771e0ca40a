// Register: find or create the host's node, keep its ports and settings in line with the host,
// and move it from enroll to manageable (BMO's Register and configureNode).
import type { Node } from '../../../ironic-client/index.ts';
import { bootMACProblem, driverCompatibilityProblem } from '../../bmc/index.ts';
import { instanceSettings, nodeCapabilities } from '../../configdrive/index.ts';
import type { RegisterOptions } from '../provisioner.ts';
import { NeedsPreprovisioningImageError, done, failed } from '../result.ts';
import type { ProvisionerResult, RegisterResult } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { createNode, nodeCreateBody } from './create-node.ts';
import { deployImageInfo, presentKeys } from './deploy-image.ts';
import type { DesiredValues } from './node-patch.ts';
import { NodePatch } from './node-patch.ts';
import { findExistingNode } from './find-node.ts';
import { ironicNodeName } from './node-name.ts';
import { changeProvisionState, patchNode } from './node-writes.ts';
import { ensurePorts } from './ports.ts';

/** Ports are only added where Ironic allows it without disrupting work (failures may be caused by missing ports). */
const PORT_STATES = new Set([
  'enroll', 'manageable', 'available', 'active',
  'adopt failed', 'inspect failed', 'clean failed', 'deploy failed', 'service failed', 'error',
]);

/** States where a PATCH would be refused or disruptive, so the node is left as it is. */
const UNCONFIGURABLE_STATES = new Set(['enroll', 'verifying', 'clean wait', 'cleaning', 'wait call-back', 'deploying', 'inspecting', 'servicing', 'service wait']);

/** A deployed node, also while Ironic services it: its instance is left as it is. */
const DEPLOYED_STATES = new Set(['active', 'servicing', 'service wait', 'service failed', 'service hold']);

/** Set by provisioning and worth keeping when driver_info is replaced for new credentials. */
const PRESERVED_DRIVER_INFO = ['force_persistent_boot_device'];

function isSecretKey(key: string): boolean {
  return key.includes('password') || key.includes('secret');
}

/**
 * Ironic never returns passwords, so credentials are compared by the caller's flag. The other
 * access keys (address, port, system id, user) are compared here: BMO compares the address.
 */
function accessChanged(current: Record<string, unknown>, wanted: Record<string, unknown>): boolean {
  return Object.entries(wanted).some(([key, value]) => !isSecretKey(key) && current[key] !== value);
}

function replacementDriverInfo(current: Record<string, unknown>, access: DesiredValues, images: DesiredValues | undefined): DesiredValues {
  const preserved = Object.fromEntries(PRESERVED_DRIVER_INFO.filter((key) => key in current).map((key) => [key, current[key]]));
  return { ...preserved, ...access, ...presentKeys(images) };
}

function settingsPatch(context: ProvisionerContext, node: Node, options: RegisterOptions, desired: {
  access: DesiredValues;
  images: DesiredValues | undefined;
}): NodePatch {
  const patch = new NodePatch().field('name', ironicNodeName(options.host), node.name);
  const driverInfo = node.driver_info ?? {};
  // A new Secret version with the very credentials this process last sent (a label, an owner
  // reference) leaves Ironic's copy alone: BMO would send them again.
  const newCredentials = options.credentialsChanged && !context.sentCredentials.holds(node.uuid, desired.access);
  if (options.credentialsChanged && !newCredentials) context.log.info('the credentials Secret changed but not the credentials in it, which ironic already has');
  const replaceDriverInfo = newCredentials || accessChanged(driverInfo, desired.access);
  if (replaceDriverInfo) {
    context.log.info('updating driver info because the credentials and/or the BMC address changed');
    patch.field('driver_info', replacementDriverInfo(driverInfo, desired.access, desired.images), driverInfo);
  }
  if (context.client.features.disablePowerOff) patch.field('disable_power_off', options.disablePowerOff, node.disable_power_off);
  patch.field('network_data', options.ramdiskNetworkData, node.network_data);

  const properties: DesiredValues = options.architecture ? { cpu_arch: options.architecture } : {};
  if (!UNCONFIGURABLE_STATES.has(node.provision_state ?? '')) {
    if (!replaceDriverInfo && desired.images !== undefined) patch.section('driver_info', desired.images, driverInfo);
    patch.field('automated_clean', options.automatedCleaningMode !== 'disabled', node.automated_clean);
    properties['capabilities'] = nodeCapabilities({ bootMode: options.bootMode, existing: node.properties?.['capabilities'] });
    instanceOfDeployedHost(patch, node, options);
  }
  return patch.section('properties', properties, node.properties);
}

/**
 * BMO's configureNode: a host that is (being) deployed gets its instance_uuid and image on a node
 * that is not active yet, e.g. one registered again after a detach or a lost Ironic database, so
 * the node adoption makes active carries what the deployed one did. Active nodes (servicing
 * ones too) and hosts being deprovisioned are left alone.
 */
function instanceOfDeployedHost(patch: NodePatch, node: Node, options: RegisterOptions): void {
  if (DEPLOYED_STATES.has(node.provision_state ?? '') || (!options.currentImage && !options.hasCustomDeploy)) return;
  // Being torn down: undeploy clears the instance, and writing it back (refused while the node
  // is deleting, accepted once it is available) only costs a PATCH on every pass.
  if (options.state === 'deprovisioning') return;
  // Being deployed: there is nothing to adopt, and the deployment writes the whole instance (its
  // root device hints too) right before it starts; a copy written here first (BMO writes both)
  // only costs one more PATCH per host.
  if (options.state === 'provisioning') return;
  patch.field('instance_uuid', options.host.uid, node.instance_uuid);
  if (!options.currentImage || options.hasCustomDeploy) return;
  const settings = instanceSettings({
    uid: options.host.uid,
    image: options.currentImage,
    bootMode: options.bootMode,
    rootDeviceHints: undefined,
    currentDeployInterface: node.deploy_interface ?? undefined,
  });
  patch.section('instance_info', settings.instanceInfo, node.instance_info);
}

export async function register(context: ProvisionerContext, options: RegisterOptions): Promise<RegisterResult> {
  const access = options.bmc;
  const incompatible = driverCompatibilityProblem({
    access,
    inspectionMode: options.inspectionMode,
    bootMode: options.bootMode,
    provisioningNetworkDisabled: context.config.provisioningNetworkDisabled,
    disablePowerOff: options.disablePowerOff,
    ironicSupportsDisablePowerOff: context.client.features.disablePowerOff,
  });
  if (incompatible !== undefined) return failed(incompatible);

  const existing = await findExistingNode(context, { host: options.host, bootMacAddress: options.bootMacAddress });
  if (existing.kind === 'mac-conflict') return failed(existing.message);

  const macProblem = bootMACProblem({ access, inspectionDisabled: options.inspectionDisabled, bootMACAddress: options.bootMacAddress });
  if (macProblem !== undefined) return failed(macProblem);

  const desired = {
    access: access.driverInfo(options.credentials),
    images: deployImageInfo({
      configured: context.config.deployImages,
      allowIso: access.supportsIsoPreprovisioningImage,
      preprovisioningImage: options.preprovisioningImage,
      imageBuilder: context.config.preprovisioningImageBuilder,
    }),
  };

  let node: Node;
  if (existing.kind === 'absent') {
    const created = await createNode(context, nodeCreateBody(context, options, { ...desired.access, ...presentKeys(desired.images) }));
    if (created.kind !== 'created') return created;
    node = created.node;
    // A node made for a host that had another (Ironic lost it, or it was detached): that one is gone.
    if (options.host.nodeId && options.host.nodeId !== node.uuid) context.sentCredentials.forget(options.host.nodeId);
  } else {
    node = existing.node;
  }
  const fresh = existing.kind === 'absent';

  if (PORT_STATES.has(node.provision_state ?? '')) {
    await ensurePorts(context, node, {
      bootMacAddress: options.bootMacAddress,
      knownMacAddresses: options.knownMacAddresses,
      freshNode: fresh,
    });
  }

  if (!fresh) {
    const patched = await patchNode(context, node, settingsPatch(context, node, options, desired), 'failed to update host settings in ironic');
    if (patched.kind !== 'patched') return naming(patched, node);
    node = patched.node;
  }
  // Created or patched with them, or left alone because it had them: Ironic holds this access now.
  context.sentCredentials.record(node.uuid, desired.access);
  const progress = await registrationProgress(context, node, options);
  if (progress.kind === 'done' && context.config.preprovisioningImageBuilder && desired.images === undefined && bootsRamdisk(options)) {
    throw new NeedsPreprovisioningImageError();
  }
  return naming(progress, node);
}

/** A wait on a node that exists names it, so the host records it at once (BMO's provID). */
function naming(result: ProvisionerResult<{ nodeId: string }>, node: Node): RegisterResult {
  return result.kind === 'busy' ? { ...result, nodeId: node.uuid } : result;
}

/**
 * BMO's configureNode: the states in which Ironic boots the IPA ramdisk, so a host whose
 * PreprovisioningImage is not ready cannot go on (fast inspection, cleaning turned off and
 * provisioned hosts that are not being serviced need none).
 */
function bootsRamdisk(options: RegisterOptions): boolean {
  switch (options.state) {
    case 'inspecting':
      return options.inspectionMode !== 'fast';
    case 'preparing':
      return true;
    case 'deprovisioning':
      return options.automatedCleaningMode !== 'disabled';
    case 'provisioned':
    case 'externally provisioned':
      return options.servicing === true;
    default:
      return false;
  }
}

/** Where the node is on its way to manageable, and what to do about it. */
async function registrationProgress(context: ProvisionerContext, node: Node, options: RegisterOptions): Promise<ProvisionerResult<{ nodeId: string }>> {
  switch (node.provision_state) {
    case 'enroll':
      // Ironic could not verify the BMC; only new credentials or an explicit retry try again.
      if (node.last_error && !(options.credentialsChanged || options.retryAfterFailure)) return failed(node.last_error);
      if (node.target_provision_state) return context.delays.short('waiting for the node to be verified');
      return changeProvisionState(context, node, { target: 'manage' });
    case 'verifying':
      return context.delays.short('ironic is verifying the BMC credentials');
    default:
      return done({ nodeId: node.uuid });
  }
}
