// Which hosts have a node whose firmware is worth reading (BMO's skipReconcileSubresource,
// plus registration, before Ironic has read the BMC).
import { DETACHED_ANNOTATION, PAUSED_ANNOTATION } from '../../api/annotations.ts';
import type { BareMetalHost } from '../../api/baremetalhost.ts';
import type { HostIdentity } from '../../provisioner/provisioner.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';

const NOT_READABLE_STATES = new Set(['', 'unmanaged', 'registering', 'deleting', 'powering off before delete']);

export function hasFirmwareToRead(host: BareMetalHost): boolean {
  const status = host.status;
  return (
    !host.metadata.deletionTimestamp &&
    !!status?.provisioning.ID &&
    status.operationalStatus !== 'detached' &&
    !NOT_READABLE_STATES.has(status.provisioning.state) &&
    !isPausedOrDetaching(host)
  );
}

/** BMO leaves the firmware of a paused host, or one being detached, alone. */
function isPausedOrDetaching(host: KubeObject): boolean {
  const annotations = host.metadata.annotations ?? {};
  return PAUSED_ANNOTATION in annotations || DETACHED_ANNOTATION in annotations;
}

/** The host was paused or unpaused, or its detach annotation came or went: whether to read may have changed. */
export function pausedOrDetachingChanged(oldHost: KubeObject, newHost: KubeObject): boolean {
  return isPausedOrDetaching(oldHost) !== isPausedOrDetaching(newHost);
}

export function firmwareHostIdentity(host: BareMetalHost): HostIdentity {
  const nodeId = host.status?.provisioning.ID;
  return { namespace: host.metadata.namespace ?? '', name: host.metadata.name ?? '', uid: host.metadata.uid ?? '', ...(nodeId ? { nodeId } : {}) };
}

/** The status fields the marker reads, as a cached (unparsed) host has them too. */
interface MarkedStatus {
  operationalStatus?: string;
  provisioning?: { ID?: string; state?: string };
}

/**
 * States whose start changes nothing in the firmware since the state they come from: the
 * provisioning of an available host and the deprovisioning of a provisioned one. Ironic refreshes
 * its copy when they end (deploy, cleaning), which the next state's read sees.
 */
const FIRMWARE_AS_IN: Readonly<Record<string, string>> = { provisioning: 'available', deprovisioning: 'provisioned' };

/**
 * The host's Ironic node, provisioning state and whether it is servicing: a change of any is
 * when an operation that refreshes Ironic's copy of the firmware can have ended (servicing keeps
 * the host `provisioned`). Whether it did is the provisioner's count (read-schedule.ts).
 */
export function firmwareReadMarker(host: KubeObject): string {
  const status = (host as { status?: unknown }).status as MarkedStatus | undefined;
  const servicing = status?.operationalStatus === 'servicing' ? '/servicing' : '';
  const state = status?.provisioning?.state ?? '';
  return `${status?.provisioning?.ID ?? ''}/${FIRMWARE_AS_IN[state] ?? state}${servicing}`;
}
