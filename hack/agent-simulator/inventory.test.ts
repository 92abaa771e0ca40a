import { describe, expect, it } from '@jest/globals';
import { buildInspectionData } from './inspection-data.ts';
import { allNics, buildInventory } from './inventory.ts';
import { testSystem } from './test-support/agent.ts';

const GiB = 1024 ** 3;

describe('buildInventory', () => {
  it('describes a realistic default server', () => {
    const inventory = buildInventory(testSystem());
    expect(inventory.cpu).toMatchObject({ architecture: 'x86_64', count: 32, socket_count: 1 });
    expect(inventory.cpu.flags).toEqual(expect.arrayContaining(['vmx', 'aes']));
    expect(inventory.memory.physical_mb).toBe(65_536);
    expect(inventory.memory.total).toBeLessThan(65_536 * 1024 * 1024);
    expect(inventory.disks.map((disk) => disk.name)).toEqual(['/dev/sda', '/dev/sdb', '/dev/nvme0n1']);
    expect(inventory.disks.map((disk) => disk.rotational)).toEqual([false, true, false]);
    for (const disk of inventory.disks) {
      expect(disk.serial).toEqual(expect.any(String));
      expect(disk.size).toBeGreaterThan(100 * GiB);
    }
    expect(inventory.disks[0]?.hctl).toBe('0:0:0:0');
    expect(inventory.system_vendor).toMatchObject({ manufacturer: 'Dell Inc.', product_name: 'PowerEdge R650' });
    expect(inventory.system_vendor.firmware.version).not.toBe('');
    expect(inventory.boot).toEqual({ current_boot_mode: 'uefi', pxe_interface: '52:54:00:00:00:01' });
    expect(inventory.hostname).toBe('server-0');
    expect(inventory.bmc_address).toBeNull();
  });

  it('derives serial numbers from the system, so two servers differ', () => {
    const a = buildInventory(testSystem());
    const b = buildInventory(testSystem({ uuid: '99999999-2222-4333-8444-555555555555' }));
    expect(a.disks[0]?.serial).not.toBe(b.disks[0]?.serial);
    expect(a.system_vendor.serial_number).not.toBe(b.system_vendor.serial_number);
    expect(buildInventory(testSystem()).disks[0]?.serial).toBe(a.disks[0]?.serial);
  });

  it('applies the configured hardware', () => {
    const inventory = buildInventory(
      testSystem({
        bmcAddress: '192.0.2.10',
        nics: [{ mac: '52:54:00:00:00:0a', ip: '192.0.2.100', name: 'eno1', speedMbps: 25_000 }],
        inventory: {
          cpu: { count: 128, modelName: 'AMD EPYC 9554', architecture: 'aarch64' },
          memoryMiB: 262_144,
          disks: [
            {
              name: '/dev/vda', sizeGiB: 40, model: 'QEMU HARDDISK', vendor: '', serial: 'qm-1', wwn: null,
              wwnWithExtension: null, wwnVendorExtension: null, rotational: true, hctl: null, byPath: null, tran: null,
            },
          ],
          systemVendor: { manufacturer: 'ACME', productName: 'Rocket 9', serialNumber: 'SN-42', firmware: { version: '9.9' } },
          hostname: 'rocket',
          extraInterfaces: [
            { mac: '52:54:00:00:00:0b', lldp: { switchId: 'aa:bb:cc:dd:ee:ff', portId: 'Ethernet1/7', switchSystemName: 'tor-1' } },
          ],
          bootMode: 'bios',
        },
      }),
    );
    expect(inventory.cpu).toMatchObject({ count: 128, model_name: 'AMD EPYC 9554', architecture: 'aarch64' });
    expect(inventory.memory.physical_mb).toBe(262_144);
    expect(inventory.disks).toEqual([
      expect.objectContaining({ name: '/dev/vda', size: 40 * GiB, serial: 'qm-1', vendor: null, rotational: true }),
    ]);
    expect(inventory.system_vendor).toEqual({
      manufacturer: 'ACME',
      product_name: 'Rocket 9',
      serial_number: 'SN-42',
      firmware: { vendor: 'Dell Inc.', version: '9.9', build_date: '03/14/2024' },
    });
    expect(inventory.hostname).toBe('rocket');
    expect(inventory.bmc_address).toBe('192.0.2.10');
    expect(inventory.boot.current_boot_mode).toBe('bios');
    expect(inventory.interfaces).toEqual([
      expect.objectContaining({ name: 'eno1', mac_address: '52:54:00:00:00:0a', ipv4_address: '192.0.2.100', speed_mbps: 25_000 }),
      expect.objectContaining({ name: 'enp2s0', mac_address: '52:54:00:00:00:0b', ipv4_address: null }),
    ]);
    // Chassis id (type 1, MAC subtype 4), port id (type 2, interface-name subtype 5), system name (type 5).
    expect(inventory.interfaces[1]?.lldp).toEqual([
      [1, '04aabbccddeeff'],
      [2, `05${Buffer.from('Ethernet1/7').toString('hex')}`],
      [5, Buffer.from('tor-1').toString('hex')],
    ]);
  });

  it('looks the node up by every NIC, BMC-listed ones first', () => {
    const system = testSystem({ inventory: { extraInterfaces: [{ mac: '52:54:00:00:00:0b' }] } });
    expect(allNics(system).map((nic) => nic.mac)).toEqual(['52:54:00:00:00:01', '52:54:00:00:00:0b']);
  });
});

describe('buildInspectionData', () => {
  it('adds what IPA collectors send next to the inventory', () => {
    const inventory = buildInventory(testSystem());
    const data = buildInspectionData(inventory);
    expect(data.inventory).toBe(inventory);
    expect(data.boot_interface).toBe('52:54:00:00:00:01');
    // The smallest disk of at least 4 GiB, as IPA guesses the root disk.
    expect((data.root_disk as { name: string }).name).toBe('/dev/sda');
    expect(data.error).toBeNull();
    expect(data.configuration).toEqual({
      collectors: ['default', 'logs'],
      managers: [{ name: 'generic_hardware_manager', version: '1.2' }, { name: 'custom_deploy_hardware_manager', version: '1.0' }],
    });
    expect(typeof data.logs).toBe('string');
  });
});
