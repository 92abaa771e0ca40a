import type { Image } from '../../api/image.ts';
import type { PreprovisioningImageFormat } from '../../api/preprovisioningimage.ts';
import type { PreprovisioningImage, RegisterOptions } from '../../provisioner/provisioner.ts';
import type { RegisterResult } from '../../provisioner/result.ts';
import { NeedsPreprovisioningImageError } from '../../provisioner/result.ts';
import { DELAYS } from './delays.ts';
import type { Action } from './action.ts';
import { continueAfter, failed, update } from './action.ts';
import { hostArchitecture } from './architecture.ts';
import { errorBackoffLeftMs } from './backoff.ts';
import { credentialsMatch, credentialsStatusFor } from './credentials-status.ts';
import { normal } from './events.ts';
import { clearError, clearHostProvisioningSettings } from './host-status.ts';
import type { Host } from './host.ts';
import { bootModeOf, identityOf, inspectionDisabled, isDeleting, specEditedSinceStatusWrite, stateOf } from './host.ts';
import { recordOperationEnd, recordOperationStart } from './operation-history.ts';
import { profileNameOf, updateRootDeviceHints } from './provisioning-settings.ts';
import type { HostCredentials, StateContext } from './state-context.ts';
import { note, publish } from './state-context.ts';

const NOT_REGISTERED_IN = new Set(['', 'unmanaged', 'match profile', 'deleting']);

/** MACs inspection found, so ports can be recreated if the provisioner lost its database. */
function knownMacAddresses(host: Host, context: StateContext): string[] {
  const nics = context.hardwareData?.spec.hardware?.nics ?? host.status.hardware?.nics ?? [];
  return [...new Set(nics.map((nic) => nic.mac).filter((mac): mac is string => Boolean(mac)))];
}

/** BMO's getCurrentImage and hasCustomDeploy: what is (being) deployed decides the deploy interface. */
function currentDeployment(host: Host): { currentImage?: Image; hasCustomDeploy: boolean } {
  const deploying = stateOf(host) === 'provisioning' || stateOf(host) === 'externally provisioned';
  const provisioned = host.status.provisioning.image?.url ? host.status.provisioning.image : undefined;
  const image = provisioned ?? (deploying && host.spec.image?.url ? host.spec.image : undefined);
  const hasCustomDeploy = Boolean(host.status.provisioning.customDeploy?.method) || (deploying && Boolean(host.spec.customDeploy?.method));
  return { ...(image ? { currentImage: image } : {}), hasCustomDeploy };
}

/** BMO: states in which no PreprovisioningImage is needed (not registered yet, or going away). */
const NO_IMAGE_STATES = new Set(['registering', 'deleting', 'powering off before delete']);

/** BMO's PreprovisioningImageFormats and registerHost's filter: what the host's image may be, or undefined when it needs none now. */
function wantedImageFormats(host: Host, credentials: HostCredentials): PreprovisioningImageFormat[] | undefined {
  const state = stateOf(host);
  if (NO_IMAGE_STATES.has(state)) return undefined;
  if ((state === 'provisioned' || state === 'externally provisioned') && host.status.operationalStatus !== 'servicing') return undefined;
  if (state === 'deprovisioning' && host.spec.automatedCleaningMode === 'disabled') return undefined;
  if (state === 'inspecting' && host.spec.inspectionMode === 'fast') return undefined;
  return credentials.access.supportsIsoPreprovisioningImage ? ['iso', 'initrd'] : ['initrd'];
}

type ImageForRegistration =
  | { kind: 'none' }
  | { kind: 'pending'; reason: string }
  | { kind: 'ready'; image: PreprovisioningImage }
  | { kind: 'failed'; message: string };

async function preprovisioningImageFor(host: Host, context: StateContext, credentials: HostCredentials): Promise<ImageForRegistration> {
  const acquire = context.ports.preprovisioningImage;
  const formats = acquire ? wantedImageFormats(host, credentials) : undefined;
  if (!acquire || !formats) return { kind: 'none' };
  const outcome = await acquire({ acceptFormats: formats, architecture: hostArchitecture(host), networkDataName: host.spec.preprovisioningNetworkDataName });
  if (outcome.kind === 'error') return { kind: 'failed', message: outcome.message };
  return outcome;
}

/**
 * BMO waits 5 minutes (the image's status wakes the host sooner), counting it in
 * metal3_waiting_for_preprov_image_total; we also say so in an event, since nothing in the
 * host's status shows why it does not go on.
 */
function waitForPreprovisioningImage(host: Host, context: StateContext, options: { reason: string; saveStatus: boolean }): Action {
  context.log.info('waiting for the PreprovisioningImage', { reason: options.reason });
  note(context, { metric: 'waitingForPreprovImage' });
  publish(context, normal('WaitingForPreprovisioningImage', `waiting for PreprovisioningImage ${host.metadata.name ?? ''}: ${options.reason}`));
  return options.saveStatus ? update(DELAYS.preprovisioningImageMs) : continueAfter(DELAYS.preprovisioningImageMs);
}

/** What the provisioner is told about the host on every registration. */
function registerOptionsFor(host: Host, context: StateContext, options: {
  credentials: HostCredentials; credentialsChanged: boolean; image: ImageForRegistration; ramdiskNetworkData: Record<string, unknown> | undefined;
}): RegisterOptions {
  const { credentials, credentialsChanged, image, ramdiskNetworkData } = options;
  const status = host.status;
  return {
    host: identityOf(host),
    bmc: credentials.access,
    credentials: credentials.login,
    ...(host.spec.bootMACAddress ? { bootMacAddress: host.spec.bootMACAddress } : {}),
    bootMode: status.provisioning.bootMode ?? bootModeOf(host),
    architecture: hostArchitecture(host),
    credentialsChanged,
    retryAfterFailure: status.errorType === 'registration error',
    automatedCleaningMode: host.spec.automatedCleaningMode,
    disablePowerOff: host.spec.disablePowerOff ?? false,
    knownMacAddresses: knownMacAddresses(host, context),
    inspectionDisabled: inspectionDisabled(host),
    ...(host.spec.inspectionMode ? { inspectionMode: host.spec.inspectionMode } : {}),
    ...currentDeployment(host),
    ...(image.kind === 'ready' ? { preprovisioningImage: image.image } : {}),
    ...(ramdiskNetworkData ? { ramdiskNetworkData } : {}),
    state: stateOf(host),
    servicing: status.operationalStatus === 'servicing',
  };
}

type Registration = { kind: 'registered'; changed: boolean } | { kind: 'pending'; action: Action };

/** BMO's "setting provisioning id", as soon as the provisioner names the node; says whether it changed. */
function recordNodeId(host: Host, context: StateContext, nodeId: string): boolean {
  const status = host.status;
  if (!nodeId || nodeId === status.provisioning.ID) return false;
  context.log.info('setting provisioning id', { id: nodeId });
  // A new node id is a node Ironic just made for the host (BMO's event on every create): the
  // first, or one replacing a node Ironic lost (its database) or dropped (a detach).
  publish(context, normal('Registered', 'Registered new host'));
  status.provisioning.ID = nodeId;
  if (stateOf(host) === 'preparing') clearHostProvisioningSettings(status);
  return true;
}

async function registerHost(host: Host, context: StateContext, credentials: HostCredentials): Promise<Registration> {
  const status = host.status;
  let changed = false;
  const credentialsChanged = !credentialsMatch(status.triedCredentials, credentials.secret);
  if (credentialsChanged) {
    status.triedCredentials = credentialsStatusFor(credentials.secret);
    note(context, { metric: 'credentialsUpdated' });
    changed = true;
  }
  const image = await preprovisioningImageFor(host, context, credentials);
  if (image.kind === 'failed') return { kind: 'pending', action: failed('registration error', image.message) };
  // Without a PreprovisioningImage builder the node carries the ramdisk's network data (BMO's register).
  const networkData = context.ports.preprovisioningImage ? { ok: true as const, value: undefined } : await context.ports.readPreprovisioningNetworkData();
  if (!networkData.ok) return { kind: 'pending', action: failed('registration error', networkData.error.message) };
  let result: RegisterResult;
  try {
    result = await context.provisioner.register(registerOptionsFor(host, context, { credentials, credentialsChanged, image, ramdiskNetworkData: networkData.value }));
  } catch (error) {
    if (!(error instanceof NeedsPreprovisioningImageError) || image.kind === 'none') throw error;
    if (image.kind === 'ready') return { kind: 'pending', action: failed('registration error', 'Preprovisioning Image is not acceptable to provisioner') };
    return { kind: 'pending', action: waitForPreprovisioningImage(host, context, { reason: image.reason, saveStatus: changed }) };
  }
  if (result.kind === 'failed') return { kind: 'pending', action: failed('registration error', result.message) };
  if (result.kind === 'busy') {
    clearError(status);
    // Saved with the pass's status whatever the action: the node is the host's from its creation.
    if (result.nodeId) recordNodeId(host, context, result.nodeId);
    return { kind: 'pending', action: continueAfter(result.afterMs) };
  }
  // As BMO does at registration: a HostUpdatePolicy made for the host gets it as an owner.
  if (!isDeleting(host)) await context.ports.acquireUpdatePolicy();
  if (recordNodeId(host, context, result.value.nodeId)) changed = true;

  const profile = profileNameOf(host);
  const profileChanged = status.hardwareProfile !== profile;
  if (profileChanged) {
    status.hardwareProfile = profile;
    publish(context, normal('ProfileSet', `Hardware profile set: ${profile}`));
  }
  const hints = updateRootDeviceHints(host, status);
  if (!hints.ok) return { kind: 'pending', action: failed('registration error', hints.message) };
  // Saved with the rest of this registration's changes, in one status write.
  if (profileChanged || hints.changed) changed = true;

  const newCredentials = !credentialsMatch(status.goodCredentials, credentials.secret);
  if (newCredentials) {
    const formerName = status.goodCredentials?.credentials?.name;
    if (formerName !== undefined && formerName !== credentials.secret.name) await context.ports.letGoOfFormerCredentials();
    status.goodCredentials = credentialsStatusFor(credentials.secret);
    publish(context, normal('BMCAccessValidated', 'Verified access to BMC'));
    changed = true;
  }
  if (status.errorType === 'registration error' || newCredentials) changed = clearError(status) || changed;
  return { kind: 'registered', changed };
}

/**
 * A failed registration is tried again once its backoff is over, as BMO's requeue after the
 * failure does, however often the host is woken before that. New credentials in the Secret or an
 * edited spec are worth a try at once, as in BMO, whose reconcile they trigger.
 */
function registrationBackoffLeftMs(host: Host, credentials: HostCredentials, now: Date): number {
  if (!credentialsMatch(host.status.triedCredentials, credentials.secret) || specEditedSinceStatusWrite(host)) return 0;
  return errorBackoffLeftMs(host.status, { errorType: 'registration error', now });
}

/**
 * BMO's `ensureRegistered`, run before the handler of every state except none, unmanaged,
 * match profile and deleting: registration is idempotent and re-creates the node when the
 * provisioner lost it; new credentials are sent when the Secret changed. Undefined means
 * "registered, nothing to save, go on to the handler".
 */
export async function ensureRegistered(host: Host, context: StateContext): Promise<Action | undefined> {
  const credentials = context.credentials;
  // Deleting without credentials: registering again could only fail.
  if (!credentials) return undefined;
  const state = stateOf(host);
  if (NOT_REGISTERED_IN.has(state)) return undefined;
  const status = host.status;
  const now = context.now();
  const backoffLeftMs = registrationBackoffLeftMs(host, credentials, now);
  if (backoffLeftMs > 0) {
    context.log.debug('waiting out the backoff before retrying registration', { afterMs: backoffLeftMs });
    return continueAfter(backoffLeftMs);
  }
  if (state !== 'registering' && (status.errorType === 'registration error' || !credentialsMatch(status.goodCredentials, credentials.secret))) {
    context.log.info('retrying registration', { lastError: status.errorMessage });
    recordOperationStart(status, 'registering', now);
  }
  const registration = await registerHost(host, context, credentials);
  if (registration.kind === 'pending') return registration.action;
  if (state !== 'registering') {
    const ended = recordOperationEnd(status, 'registering', now);
    if (ended) note(context, ended);
  }
  // What registration changed (node, profile, root device hints, credentials, a cleared error) is
  // saved with the handler's work in one status write: BMO saves it and runs the handler on the
  // next reconcile, e.g. one more write after every deprovisioning, whose cleared settings come back here.
  return undefined;
}
