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

  it('lists the same disks with the same sizes under one SimpleStorage controller', () => {
    const devices = Object.values(hardware.simple_storage).flatMap((controller) => controller.DeviceList);
    expect(devices).toEqual(inventory.disks.map((disk) => ({ Name: disk.name, CapacityBytes: disk.size })));
  });

});
