import { DETACHED_ANNOTATION, INSPECT_ANNOTATION, INSPECT_ANNOTATION_DISABLED } from '../../api/annotations.ts';
import type { BareMetalHost, BareMetalHostStatus } from '../../api/baremetalhost.ts';
import type { BootMode } from '../../api/baremetalhost-enums.ts';
import type { ProvisioningState } from '../../api/provisioning-state.ts';
import type { HostIdentity } from '../../provisioner/provisioner.ts';

/** A BareMetalHost whose status is a working draft the handlers may change. */
export type Host = BareMetalHost & { status: BareMetalHostStatus };

export function stateOf(host: Host): ProvisioningState {
  return host.status.provisioning.state;
}

export function isDeleting(host: BareMetalHost): boolean {
  return Boolean(host.metadata.deletionTimestamp);
}

export function annotationsOf(host: BareMetalHost): Record<string, string> {
  return host.metadata.annotations ?? {};
}

/** A BMC address or a credentials Secret: enough to try registering. */
export function hasBMCDetails(host: BareMetalHost): boolean {
  return (host.spec.bmc?.address ?? '') !== '' || (host.spec.bmc?.credentialsName ?? '') !== '';
}

/** `spec.inspectionMode: disabled`, or the legacy `inspect.metal3.io: disabled` annotation. */
export function inspectionDisabled(host: BareMetalHost): boolean {
  return host.spec.inspectionMode === 'disabled' || annotationsOf(host)[INSPECT_ANNOTATION] === INSPECT_ANNOTATION_DISABLED;
}

/** `inspect.metal3.io` with any value but `disabled` asks for a new inspection. */
export function inspectionRefreshRequested(host: BareMetalHost): boolean {
  const value = annotationsOf(host)[INSPECT_ANNOTATION];
  return value !== undefined && value !== INSPECT_ANNOTATION_DISABLED;
}

export function hasDetachedAnnotation(host: BareMetalHost): boolean {
  return DETACHED_ANNOTATION in annotationsOf(host);
}

export function bootModeOf(host: BareMetalHost): BootMode {
  return host.spec.bootMode ?? 'UEFI';
}

export function identityOf(host: Host): HostIdentity {
  const identity: HostIdentity = {
    namespace: host.metadata.namespace ?? '',
    name: host.metadata.name ?? '',
    uid: host.metadata.uid ?? '',
  };
  if (host.status.provisioning.ID) identity.nodeId = host.status.provisioning.ID;
  return identity;
}

/** BMO's `NeedsProvisioning`: powered on with an image or custom deploy not yet deployed. */
export function needsProvisioning(host: Host): boolean {
  if (!host.spec.online) return false;
  return hasNewImage(host) || hasNewCustomDeploy(host);
}

function hasNewImage(host: Host): boolean {
  if (!host.spec.image?.url) return false;
  return !host.status.provisioning.image?.url;
}

function hasNewCustomDeploy(host: Host): boolean {
  const wanted = host.spec.customDeploy?.method;
  if (!wanted) return false;
  return host.status.provisioning.customDeploy?.method !== wanted;
}

/** BMO's `provisioningCancelled`: what is (being) deployed no longer matches the spec. */
export function provisioningCancelled(host: Host): boolean {
  const specMethod = host.spec.customDeploy?.method ?? '';
  const statusMethod = host.status.provisioning.customDeploy?.method ?? '';
  const statusUrl = host.status.provisioning.image?.url ?? '';
  if (specMethod !== '') {
    if (statusMethod !== '' && statusMethod !== specMethod) return true;
    return statusUrl !== '' && host.spec.image?.url !== statusUrl;
  }
  if (statusMethod !== '') return true;
  const specUrl = host.spec.image?.url ?? '';
  if (specUrl === '') return true;
  return statusUrl !== '' && specUrl !== statusUrl;
}

/**
 * The spec was edited after the last status write: every write stamps the conditions with the
 * generation it saw, so the newest stamp older than the generation means an edit since.
 */
export function specEditedSinceStatusWrite(host: Host): boolean {
  const generation = host.metadata.generation;
  const stamps = (host.status.conditions ?? []).flatMap((condition) => condition.observedGeneration ?? []);
  return generation !== undefined && stamps.length > 0 && Math.max(...stamps) < generation;
}
