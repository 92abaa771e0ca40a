import { describe, it, expect } from '@jest/globals';
import { clockMegahertz, cpuDetails } from './cpu-details.ts';
import { inventoryCpuSchema, inventoryDiskSchema, inventoryInterfaceSchema } from './inventory-schema.ts';
import { lldpDetails, vlanDetails } from './lldp-details.ts';
import { nicDetails } from './nic-details.ts';
import { diskType, storageDetails } from './storage-details.ts';

const iface = (fields: Record<string, unknown>) => inventoryInterfaceSchema.parse(fields);
const disk = (fields: Record<string, unknown>) => inventoryDiskSchema.parse(fields);
const noPlugin = { all_interfaces: {}, parsed_lldp: {} };

describe('nicDetails', () => {
  it('emits one entry per address family, and one for an address-less NIC', () => {
    const nics = nicDetails(
      [
        iface({ name: 'eth0', ipv4_address: '192.0.2.1', mac_address: '00:11:22:33:44:55', pci_address: '0000:00:00.0' }),
        iface({ name: 'eth1', ipv6_address: '2001:db8::1', mac_address: '66:77:88:99:aa:bb', speed_mbps: 1000 }),
        iface({ name: 'eth46', ipv6_address: '2001:db8::2', ipv4_address: '192.0.2.2', mac_address: '00:11:22:33:44:66' }),
        iface({ name: 'ethNoIp', mac_address: '00:11:22:33:44:77' }),
      ],
      {
        all_interfaces: { eth0: { pxe_enabled: true } },
        parsed_lldp: { eth0: { switch_port_vlans: [{ id: 1 }], switch_port_untagged_vlan_id: 1, switch_port_id: 'Ethernet1/1' } },
      },
    );
    expect(nics).toEqual([
      { name: 'eth0', mac: '00:11:22:33:44:55', ip: '192.0.2.1', pciAddress: '0000:00:00.0', pxe: true, vlans: [{ id: 1 }], vlanId: 1, lldp: { portID: 'Ethernet1/1' } },
      { name: 'eth1', mac: '66:77:88:99:aa:bb', ip: '2001:db8::1', speedGbps: 1 },
      { name: 'eth46', mac: '00:11:22:33:44:66', ip: '192.0.2.2' },
      { name: 'eth46', mac: '00:11:22:33:44:66', ip: '2001:db8::2' },
      { name: 'ethNoIp', mac: '00:11:22:33:44:77' },
    ]);
  });

  it.each([
    [999, undefined],
    [1000, 1],
    [2500, 2],
    [100000, 100],
  ])('reports %s Mbit/s as %s Gbit/s', (speed, gbps) => {
    expect(nicDetails([iface({ name: 'e', speed_mbps: speed })], noPlugin)[0]?.speedGbps).toBe(gbps);
  });
});

describe('LLDP', () => {
  it.each([
    [undefined, undefined],
    [{}, undefined],
    [{ switch_chassis_id: '', switch_port_id: '', switch_system_name: '' }, undefined],
    [{ switch_chassis_id: 123, switch_port_id: ['p1'], switch_system_name: { name: 's' } }, undefined],
    [{ switch_chassis_id: 'aa:bb:cc:dd:ee:ff', switch_port_id: 123, switch_system_name: '' }, { switchID: 'aa:bb:cc:dd:ee:ff' }],
    [{ switch_system_name: 'switch01', unknown_field: 'x' }, { switchSystemName: 'switch01' }],
  ])('%j', (lldp, expected) => {
    expect(lldpDetails(lldp)).toEqual(expected);
  });

  it.each([
    [{ switch_port_vlans: [{ id: 1, name: 'vlan1' }, { id: 4094, name: 'vlan4094' }], switch_port_untagged_vlan_id: 1 }, [{ id: 1, name: 'vlan1' }, { id: 4094, name: 'vlan4094' }], 1],
    [
      { switch_port_vlans: [{ foo: 'bar', name: 'vlan1' }, { id: 1 }, { name: 'vlan2', id: '2' }, { name: 3, id: 3 }, {}], switch_port_untagged_vlan_id: '1' },
      [{ name: 'vlan1' }, { id: 1 }, { name: 'vlan2' }, { id: 3 }, {}],
      0,
    ],
    [{ switch_port_vlans: { foo: 'bar' } }, [], 0],
    [{ switch_port_vlans: ['foo'] }, [], 0],
    [{ switch_port_vlans: 'foo' }, [], 0],
    [{ switch_port_untagged_vlan_id: 1.5 }, [], 0],
  ])('VLANs of %j', (lldp, vlans, vlanId) => {
    expect(vlanDetails(lldp)).toEqual({ vlans, vlanId });
  });
});

describe('storage', () => {
  it.each([
    [{ rotational: true }, 'HDD'],
    [{ name: '/dev/nvme0n1' }, 'NVME'],
    [{ name: '/dev/nvme0n1p1' }, 'NVME'],
    [{ name: '/dev/sda' }, 'SSD'],
    [{ rotational: true, name: '/dev/nvme0n1' }, 'HDD'],
    [{}, 'SSD'],
  ])('disk %j is %s', (fields, type) => {
    expect(diskType(disk(fields))).toBe(type);
  });

  it.each([
    [{ name: '', by_path: '/dev/disk/by-path/pci-0000:00:1f.0-nvme-1' }, '/dev/disk/by-path/pci-0000:00:1f.0-nvme-1', ['/dev/disk/by-path/pci-0000:00:1f.0-nvme-1']],
    [{ size: 256000000000 }, undefined, undefined],
  ])('names %j', (fields, name, alternateNames) => {
    const [storage] = storageDetails([disk(fields)]);
    expect(storage?.name).toBe(name);
    expect(storage?.alternateNames).toEqual(alternateNames);
  });

  it('is empty without disks', () => {
    expect(storageDetails([])).toEqual([]);
  });
});

describe('cpu', () => {
  it.each([
    ['1900.0000', 1900],
    ['2499.998', 2500],
    ['2499.5', 2500],
    ['', 0],
    ['not-a-number', 0],
    ['  3000 MHz', 3000],
    ['1e3', 1000],
  ])('clock %j is %s MHz', (frequency, mhz) => {
    expect(clockMegahertz(frequency)).toBe(mhz);
  });

  it('sorts flags without touching the input', () => {
    const cpu = inventoryCpuSchema.parse({ architecture: 'x86_64', model_name: 'i7', frequency: 1900, count: 8, flags: ['vmx', 'avx', 'aes'] });
    expect(cpuDetails(cpu)).toEqual({ arch: 'x86_64', model: 'i7', clockMegahertz: 1900, count: 8, flags: ['aes', 'avx', 'vmx'] });
    expect(cpu.flags).toEqual(['vmx', 'avx', 'aes']);
  });
});
