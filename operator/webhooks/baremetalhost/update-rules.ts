import type { BareMetalHost } from '../../api/baremetalhost.ts';
import type { Violation } from '../../runtime/index.ts';

function stateOf(host: BareMetalHost): string {
  return host.status?.provisioning.state ?? '';
}

function detached(host: BareMetalHost): boolean {
  return host.status?.operationalStatus === 'detached';
}

/** What may not change on an existing host, on top of the creation rules. */
export function updateViolations(old: BareMetalHost, updated: BareMetalHost): Violation[] {
  const violations: Violation[] = [];
  const oldAddress = old.spec.bmc?.address ?? '';
  // Ironic keeps the node's driver; only a host not yet (or no longer) in Ironic may move BMC.
  if (oldAddress !== '' && (updated.spec.bmc?.address ?? '') !== oldAddress && !detached(old) && !detached(updated) &&
    stateOf(old) !== 'registering' && stateOf(updated) !== 'registering') {
    violations.push({
      field: 'spec.bmc.address',
      message: 'BMC address can not be changed if the BMH is not in the Registering state, or if the BMH is not detached',
    });
  }
  const oldMAC = old.spec.bootMACAddress ?? '';
  if (oldMAC !== '' && (updated.spec.bootMACAddress ?? '').toLowerCase() !== oldMAC.toLowerCase()) {
    violations.push({ field: 'spec.bootMACAddress', message: 'bootMACAddress can not be changed once it is set' });
  }
  if (!old.spec.externallyProvisioned && updated.spec.externallyProvisioned && stateOf(old) !== 'available' && stateOf(updated) !== 'available') {
    violations.push({
      field: 'spec.externallyProvisioned',
      message: `externallyProvisioned can only be enabled when in Available state, currently in ${stateOf(old)}`,
    });
  }
  return violations;
}
