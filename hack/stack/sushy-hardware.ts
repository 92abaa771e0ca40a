import { buildInventory } from '../agent-simulator/inventory.ts';
import type { InventoryDisk } from '../agent-simulator/inventory-types.ts';
import type { EmulatedSystem } from './systems.ts';

/** One drive of a Redfish Storage resource, as `sushy/templates/drive.json` renders it. */
export interface RedfishDrive {
  Id: string;
  Name: string;
  CapacityBytes: number;
  MediaType: 'SSD' | 'HDD';
  Protocol: 'SATA' | 'SAS' | 'NVMe';
  Model: string;
  Manufacturer: string;
  SerialNumber: string;
}

/**
 * What an emulated server's BMC reports about its hardware over Redfish (Processors,
 * MemorySummary, Storage with its Drives), read by `sushy/fake_hardware.py`. It is taken from
 * the inventory the agent simulator reports for the same server, so out-of-band (`redfish`) and
 * in-band (`agent`) inspection describe one machine.
 */
export interface RedfishHardware {
  processors: { id: string; socket: string; model: string; vendor: string; cores: number; threads: number }[];
  memory_gib: number;
  storage: { id: string; name: string; drives: RedfishDrive[] };
}

const MiB_PER_GiB = 1024;

function protocolOf(disk: InventoryDisk): RedfishDrive['Protocol'] {
  if (disk.tran === 'nvme') return 'NVMe';
  return disk.tran === 'sas' ? 'SAS' : 'SATA';
}

function toDrive(disk: InventoryDisk, index: number): RedfishDrive {
  return {
    Id: `Disk.${index}`,
    Name: disk.name,
    CapacityBytes: disk.size,
    MediaType: disk.rotational ? 'HDD' : 'SSD',
    Protocol: protocolOf(disk),
    Model: disk.model,
    Manufacturer: disk.vendor ?? '',
    SerialNumber: disk.serial ?? '',
  };
}

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
  return {
    processors,
    memory_gib: Math.floor(inventory.memory.physical_mb / MiB_PER_GiB),
    storage: { id: '1', name: 'Local Storage', drives: inventory.disks.map(toDrive) },
  };
}
