import type { BareMetalHost } from '../../operator/api/index.ts';
import type { MachineAddress } from '../api/index.ts';

/** CAPM3's addresses: every NIC IP as InternalIP, the hostname as Hostname and InternalDNS. */
export function hostAddresses(host: BareMetalHost): MachineAddress[] {
  const hardware = host.status?.hardware;
  const addresses: MachineAddress[] = [];
  const seen = new Set<string>();
  for (const nic of hardware?.nics ?? []) {
    if (!nic.ip || seen.has(nic.ip)) continue;
    seen.add(nic.ip);
    addresses.push({ type: 'InternalIP', address: nic.ip });
  }
  if (hardware?.hostname) {
    addresses.push({ type: 'Hostname', address: hardware.hostname }, { type: 'InternalDNS', address: hardware.hostname });
  }
  return addresses.slice(0, 32);
}
