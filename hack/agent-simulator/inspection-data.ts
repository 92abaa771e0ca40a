import type { Inventory } from './inventory-types.ts';
import { guessRootDisk } from './root-device.ts';
import { systemLogsArchive } from './log-archive.ts';

export const HARDWARE_MANAGERS = [
  { name: 'generic_hardware_manager', version: '1.2' },
  { name: 'custom_deploy_hardware_manager', version: '1.0' },
] as const;

/**
 * The body IPA posts to /v1/continue_inspection: the inventory plus what its
 * default collectors add next to it (root disk guess, PXE NIC, configuration, logs).
 */
export function buildInspectionData(inventory: Inventory): Record<string, unknown> {
  const data: Record<string, unknown> = {
    inventory,
    boot_interface: inventory.boot.pxe_interface,
    configuration: { collectors: ['default', 'logs'], managers: HARDWARE_MANAGERS },
    logs: systemLogsArchive(`inspection of ${inventory.hostname}\n`),
    error: null,
  };
  const rootDisk = guessRootDisk(inventory.disks);
  if (rootDisk !== undefined) data.root_disk = rootDisk;
  return data;
}
