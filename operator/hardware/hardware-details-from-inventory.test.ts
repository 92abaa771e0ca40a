import { describe, it, expect } from '@jest/globals';
import { hardwareDetailsFromInventory } from './hardware-details-from-inventory.ts';
import { InventoryError } from './inventory-error.ts';
import { rackServerInventory, virtualMachineInventory } from './testdata/inventories.ts';

describe('hardwareDetailsFromInventory', () => {
  it('maps a rack server', () => {
    expect(hardwareDetailsFromInventory(rackServerInventory)).toEqual({
      ok: true,
      warnings: [],
      hardware: {
        systemVendor: { manufacturer: 'Dell Inc.', productName: 'PowerEdge R650 (SKU=0924;ModelName=PowerEdge R650)', serialNumber: 'J3XK4T3' },
        firmware: { bios: { date: '03/14/2024', vendor: 'Dell Inc.', version: '1.13.2' } },
        ramMebibytes: 262144,
        nics: [
          {
            name: 'eno12399',
            model: '0x8086 0x159b',
            mac: 'b4:96:91:1c:2e:40',
            ip: '192.168.111.20',
            speedGbps: 25,
            vlans: [
              { id: 100, name: 'provisioning' },
              { id: 200, name: 'storage' },
            ],
            vlanId: 100,
            pxe: true,
            lldp: { switchID: '64:64:9b:31:12:00', portID: 'Ethernet1/7', switchSystemName: 'leaf-01.lab.example.com' },
            pciAddress: '0000:31:00.0',
          },
          {
            name: 'eno12399',
            model: '0x8086 0x159b',
            mac: 'b4:96:91:1c:2e:40',
            ip: 'fd2e:6f44:5dd8:c956::14',
            speedGbps: 25,
            vlans: [
              { id: 100, name: 'provisioning' },
              { id: 200, name: 'storage' },
            ],
            vlanId: 100,
            pxe: true,
            lldp: { switchID: '64:64:9b:31:12:00', portID: 'Ethernet1/7', switchSystemName: 'leaf-01.lab.example.com' },
            pciAddress: '0000:31:00.0',
          },
          { name: 'eno12409', model: '0x8086 0x159b', mac: 'b4:96:91:1c:2e:41', pciAddress: '0000:31:00.1' },
        ],
        storage: [
          {
            name: '/dev/disk/by-path/pci-0000:c1:00.0-nvme-1',
            alternateNames: ['/dev/nvme0n1', '/dev/disk/by-path/pci-0000:c1:00.0-nvme-1'],
            type: 'NVME',
            sizeBytes: 1600321314816,
            model: 'Dell Ent NVMe P5600 MU U.2 1.6TB',
            serialNumber: 'PHAB123400AB1P6AGN',
            wwn: 'eui.01000000000000005cd2e4e8f7a25151',
            wwnWithExtension: 'eui.01000000000000005cd2e4e8f7a25151',
          },
          {
            name: '/dev/disk/by-path/pci-0000:18:00.0-scsi-0:2:0:0',
            alternateNames: ['/dev/sda', '/dev/disk/by-path/pci-0000:18:00.0-scsi-0:2:0:0'],
            rotational: true,
            type: 'HDD',
            sizeBytes: 1199638052864,
            vendor: 'DELL',
            model: 'PERC H755 Front',
            serialNumber: '6f4ee0806c2e55002a9c4bd1a0b3d0e1',
            wwn: '0x6f4ee0806c2e5500',
            wwnVendorExtension: '0x2a9c4bd1a0b3d0e1',
            wwnWithExtension: '0x6f4ee0806c2e55002a9c4bd1a0b3d0e1',
            hctl: '0:2:0:0',
          },
        ],
        cpu: {
          arch: 'x86_64',
          model: 'Intel(R) Xeon(R) Gold 6326 CPU @ 2.90GHz',
          clockMegahertz: 2900,
          flags: ['aes', 'avx2', 'avx512f', 'sse4_2', 'vmx'],
          count: 64,
        },
        hostname: 'worker-0.lab.example.com',
      },
    });
  });

  it('maps a libvirt VM with sparse data', () => {
    expect(hardwareDetailsFromInventory(virtualMachineInventory)).toEqual({
      ok: true,
      warnings: [],
      hardware: {
        systemVendor: { manufacturer: 'Red Hat', productName: 'KVM' },
        firmware: { bios: {} },
        ramMebibytes: 16384,
        nics: [
          // Go's integer division truncates -1 Mbit/s ("unknown") to 0, which is then omitted.
          { name: 'enp1s0', model: '0x1af4 0x0001', mac: '00:ee:d0:b8:47:7e', ip: '172.22.0.55', pxe: true },
          // BMO only trims the left of "vendor product", so a missing product leaves a space.
          { name: 'enp2s0', model: '0x1af4 ', mac: '00:ee:d0:b8:47:7f', ip: 'fe80::2ee:d0ff:feb8:477f' },
        ],
        storage: [{ name: '/dev/vda', alternateNames: ['/dev/vda'], rotational: true, type: 'HDD', sizeBytes: 53687091200, vendor: '0x1af4' }],
        cpu: { arch: 'x86_64', model: 'QEMU Virtual CPU version 2.5+', flags: ['fpu', 'sse2'], count: 2 },
        hostname: 'localhost.localdomain',
      },
    });
  });

  it('keeps structs that Go always emits when the inventory is empty', () => {
    expect(hardwareDetailsFromInventory({ inventory: {} })).toEqual({
      ok: true,
      warnings: [],
      hardware: { systemVendor: {}, firmware: { bios: {} }, cpu: {} },
    });
  });

  it('drops PXE and LLDP details, with a warning, when plugin data is malformed', () => {
    const result = hardwareDetailsFromInventory({ ...rackServerInventory, plugin_data: { all_interfaces: { eno12399: { pxe_enabled: 'yes' } } } });
    if (!result.ok) throw result.error;
    expect(result.warnings).toEqual([
      'cannot read plugin_data.all_interfaces.eno12399.pxe_enabled (Invalid input: expected boolean, received string); PXE and LLDP details are unavailable',
    ]);
    expect(result.hardware.nics?.[0]).not.toHaveProperty('pxe');
    expect(result.hardware.nics?.[0]).not.toHaveProperty('lldp');
  });

  it.each([
    [null, '(root)'],
    [{}, 'inventory'],
    [{ inventory: { disks: [{ name: '/dev/sda', size: '1TB' }] } }, 'inventory.disks[0].size'],
    [{ inventory: { interfaces: [{ name: 'eth0', speed_mbps: 2.5 }] } }, 'inventory.interfaces[0].speed_mbps'],
    [{ inventory: { cpu: { flags: 'fpu sse' } } }, 'inventory.cpu.flags'],
    [{ inventory: { memory: { physical_mb: true } } }, 'inventory.memory.physical_mb'],
    [{ inventory: { system_vendor: { firmware: { version: 7 } } } }, 'inventory.system_vendor.firmware.version'],
  ])('names the bad field in %j', (raw, field) => {
    const result = hardwareDetailsFromInventory(raw);
    if (result.ok) throw new Error('expected a failure');
    expect(result.error).toBeInstanceOf(InventoryError);
    expect(result.error.field).toBe(field);
    expect(result.error.message.startsWith(`invalid Ironic inventory: ${field}: `)).toBe(true);
  });
});
