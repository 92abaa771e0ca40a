import { cpuDetails } from './cpu-details.ts';
import type { HardwareDetails } from './hardware-details.ts';
import type { InventoryError } from './inventory-error.ts';
import { nicDetails } from './nic-details.ts';
import { omitEmpty } from './omit-empty.ts';
import type { ParsedInventory } from './parse-inventory.ts';
import { parseInventory } from './parse-inventory.ts';
import { storageDetails } from './storage-details.ts';

/** BMO's `GetHardwareDetails` on already-parsed inventory. */
export function hardwareDetails(parsed: Pick<ParsedInventory, 'inventory' | 'pluginData'>): HardwareDetails {
  const { inventory, pluginData } = parsed;
  const vendor = inventory.system_vendor;
  return omitEmpty<HardwareDetails>({
    systemVendor: omitEmpty({ manufacturer: vendor.manufacturer, productName: vendor.product_name, serialNumber: vendor.serial_number }),
    firmware: {
      bios: omitEmpty({ date: vendor.firmware.build_date, vendor: vendor.firmware.vendor, version: vendor.firmware.version }),
    },
    ramMebibytes: inventory.memory.physical_mb,
    nics: nicDetails(inventory.interfaces, pluginData),
    storage: storageDetails(inventory.disks),
    cpu: cpuDetails(inventory.cpu),
    hostname: inventory.hostname,
  });
}

export type HardwareDetailsResult =
  | { ok: true; hardware: HardwareDetails; warnings: string[] }
  | { ok: false; error: InventoryError };

/** From the raw JSON of `GET /v1/nodes/{id}/inventory` to `status.hardware`. Never throws. */
export function hardwareDetailsFromInventory(raw: unknown): HardwareDetailsResult {
  const parsed = parseInventory(raw);
  if (!parsed.ok) return parsed;
  return { ok: true, hardware: hardwareDetails(parsed.value), warnings: parsed.value.warnings };
}
