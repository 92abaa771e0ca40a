// Which hosts have a node whose firmware is worth reading (BMO's skipReconcileSubresource,
// plus registration, before Ironic has read the BMC).
import type { BareMetalHost } from '../../api/baremetalhost.ts';
import type { HostIdentity } from '../../provisioner/provisioner.ts';

const NOT_READABLE_STATES = new Set(['', 'unmanaged', 'registering', 'deleting', 'powering off before delete']);

export function hasFirmwareToRead(host: BareMetalHost): boolean {
  const status = host.status;
  return (
    !host.metadata.deletionTimestamp &&
    !!status?.provisioning.ID &&
    status.operationalStatus !== 'detached' &&
    !NOT_READABLE_STATES.has(status.provisioning.state)
  );
}

export function firmwareHostIdentity(host: BareMetalHost): HostIdentity {
  const nodeId = host.status?.provisioning.ID;
  return { namespace: host.metadata.namespace ?? '', name: host.metadata.name ?? '', uid: host.metadata.uid ?? '', ...(nodeId ? { nodeId } : {}) };
}

/** The host's Ironic node and provisioning state: a new one is when Ironic refreshed its copy of the firmware. */
export function firmwareReadMarker(host: BareMetalHost): string {
  return `${host.status?.provisioning.ID ?? ''}/${host.status?.provisioning.state ?? ''}`;
}
