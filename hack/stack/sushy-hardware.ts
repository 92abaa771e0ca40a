import { buildInventory } from '../agent-simulator/inventory.ts';
import type { EmulatedSystem } from './systems.ts';

/**
 * What an emulated server's BMC reports about its hardware over Redfish (Processors,
 * MemorySummary, SimpleStorage), read by `sushy/fake_hardware.py`. It is taken from the inventory
 * the agent simulator reports for the same server, so out-of-band (`redfish`) inspection and
 * in-band (`agent`) inspection describe one machine.
 */
export interface RedfishHardware {
  processors: { id: string; socket: string; model: string; vendor: string; cores: number; threads: number }[];
  memory_gib: number;
  /** SimpleStorage controllers keyed by id, each with its devices (Name, CapacityBytes). */
  simple_storage: Record<string, { Id: string; Name: string; DeviceList: { Name: string; CapacityBytes: number }[] }>;
}

const MiB_PER_GiB = 1024;

export function redfishHardware(system: EmulatedSystem): RedfishHardware {
  const inventory = buildInventory({ uuid: system.uuid, name: system.name, nics: system.macs.map((mac) => ({ mac })) });
  const sockets = Math.max(1, inventory.cpu.socket_count);
  // Redfish counts threads per socket; Ironic sums TotalThreads over the sockets into cpu.count.
  const threadsPerSocket = Math.floor(inventory.cpu.count / sockets);
  const processors = Array.from({ length: sockets }, (_, index) => ({
    id: `CPU${index}`,
    socket: `CPU ${index}`,
    model: inventory.cpu.model_name,
    vendor: inventory.cpu.model_name.startsWith('Intel') ? 'Intel(R) Corporation' : 'N/A',
    cores: Math.max(1, Math.floor(threadsPerSocket / 2)),
    threads: threadsPerSocket,
  }));
  const devices = inventory.disks.map((disk) => ({ Name: disk.name, CapacityBytes: disk.size }));
  return {
    processors,
    memory_gib: Math.floor(inventory.memory.physical_mb / MiB_PER_GiB),
    simple_storage: { '0': { Id: '0', Name: 'Integrated', DeviceList: devices } },
  };
}
