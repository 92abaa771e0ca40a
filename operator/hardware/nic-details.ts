import type { NIC } from './hardware-details.ts';
import type { InventoryInterface, PluginData } from './inventory-schema.ts';
import { lldpDetails, vlanDetails } from './lldp-details.ts';
import { omitEmpty } from './omit-empty.ts';

/**
 * One entry per address: a dual-stack interface yields an IPv4 then an IPv6 entry; an
 * interface without addresses still yields one entry. Inventory order is kept.
 */
export function nicDetails(interfaces: readonly InventoryInterface[], pluginData: PluginData): NIC[] {
  return interfaces.flatMap((iface) => {
    const lldp = pluginData.parsed_lldp[iface.name] ?? undefined;
    const { vlans, vlanId } = vlanDetails(lldp);
    const shared: NIC = {
      name: iface.name,
      // BMO trims only the left, so a vendor without a product keeps a trailing space.
      model: `${iface.vendor} ${iface.product}`.replace(/^ +/, ''),
      mac: iface.mac_address,
      vlans,
      vlanId,
      speedGbps: Math.trunc(iface.speed_mbps / 1000),
      // Ironic marks the interface it saw PXE booting (the boot MAC) in its processed data.
      pxe: pluginData.all_interfaces[iface.name]?.pxe_enabled ?? false,
      lldp: lldpDetails(lldp),
      pciAddress: iface.pci_address,
    };
    const addresses: string[] = [];
    if (iface.ipv4_address !== '' || iface.ipv6_address === '') addresses.push(iface.ipv4_address);
    if (iface.ipv6_address !== '') addresses.push(iface.ipv6_address);
    return addresses.map((ip) => omitEmpty<NIC>({ ...shared, ip }));
  });
}
