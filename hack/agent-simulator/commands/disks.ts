import { agentErrors } from '../agent-errors.ts';
import type { RamdiskAgent } from '../agent.ts';
import type { InventoryDisk } from '../inventory-types.ts';
import { findDisksByHints, pickRootDisk, type RootDeviceHints } from '../root-device.ts';
import { asRecord } from './types.ts';

/** IPA's list_block_devices_check_skip_list: disks matching the node's skip_block_devices hints are left alone. */
export function usableDisks(agent: RamdiskAgent): InventoryDisk[] {
  const disks = agent.services.inventory.disks;
  const skipHints = agent.node?.properties?.skip_block_devices;
  if (!Array.isArray(skipHints) || skipHints.length === 0) return [...disks];
  const skipped = new Set<string>();
  for (const hint of skipHints) {
    const hints = asRecord(hint);
    if (hints === undefined) continue;
    for (const disk of findDisksByHints(disks, hints)) skipped.add(disk.name);
  }
  return disks.filter((disk) => !skipped.has(disk.name));
}

/** IPA's get_os_install_device: instance_info root_device hints win over the node's properties. */
export function osInstallDisk(agent: RamdiskAgent): InventoryDisk {
  const hints = (asRecord(agent.node?.instance_info?.root_device) ?? asRecord(agent.node?.properties?.root_device)) as
    | RootDeviceHints
    | undefined;
  let disk: InventoryDisk | undefined;
  try {
    disk = pickRootDisk(usableDisks(agent), hints);
  } catch (error) {
    throw agentErrors.deviceNotFound(
      `No devices could be found using the root device hints ${JSON.stringify(hints)} because they failed to ` +
        `validate. Error: ${(error as Error).message}`,
    );
  }
  if (disk !== undefined) return disk;
  if (hints !== undefined && Object.keys(hints).length > 0) {
    throw agentErrors.deviceNotFound(`No suitable device was found for deployment using these hints ${JSON.stringify(hints)}`);
  }
  throw agentErrors.deviceNotFound(
    'No suitable device was found for deployment - root device hints were not provided and all found block ' +
      'devices are smaller than 4294967296B.',
  );
}
