import { describe, expect, it } from '@jest/globals';
import { buildInventory } from '../agent-simulator/inventory.ts';
import { redfishHardware } from './sushy-hardware.ts';
import { emulatedSystems } from './systems.ts';

describe('the hardware an emulated BMC serves', () => {
  const system = emulatedSystems(3)[2]!;
  const inventory = buildInventory({ uuid: system.uuid, name: system.name, nics: system.macs.map((mac) => ({ mac })) });
  const hardware = redfishHardware(system);

  it('counts the logical CPUs the agent reports, one Redfish processor per socket, with its model', () => {
    expect(hardware.processors).toHaveLength(inventory.cpu.socket_count);
    expect(hardware.processors.reduce((sum, processor) => sum + processor.threads, 0)).toBe(inventory.cpu.count);
    expect(hardware.processors[0]).toMatchObject({ id: 'CPU0', model: inventory.cpu.model_name });
  });

  it('reports the memory in whole GiB, as Redfish MemorySummary does', () => {
    expect(hardware.memory_gib * 1024).toBe(inventory.memory.physical_mb);
  });

  it('lists the same disks as drives: size, solid state or spinning, protocol, model and serial', () => {
    expect(hardware.storage.drives.map((drive) => [drive.Name, drive.CapacityBytes, drive.MediaType, drive.Protocol])).toEqual([
      ['/dev/sda', inventory.disks[0]!.size, 'SSD', 'SATA'],
      ['/dev/sdb', inventory.disks[1]!.size, 'HDD', 'SATA'],
      ['/dev/nvme0n1', inventory.disks[2]!.size, 'SSD', 'NVMe'],
    ]);
    expect(hardware.storage.drives.map((drive) => [drive.Model, drive.SerialNumber]))
      .toEqual(inventory.disks.map((disk) => [disk.model, disk.serial]));
    expect(new Set(hardware.storage.drives.map((drive) => drive.Id)).size).toBe(inventory.disks.length);
  });
});
