import type { DiskType, Storage } from './hardware-details.ts';
import type { InventoryDisk } from './inventory-schema.ts';
import { omitEmpty } from './omit-empty.ts';

/** Rotational wins, then an NVMe device name; everything else counts as SSD. */
export function diskType(disk: Pick<InventoryDisk, 'rotational' | 'name'>): DiskType {
  if (disk.rotational) return 'HDD';
  if (disk.name.startsWith('/dev/nvme')) return 'NVME';
  return 'SSD';
}

/** Inventory order is kept. The stable by-path link, when known, becomes the name. */
export function storageDetails(disks: readonly InventoryDisk[]): Storage[] {
  return disks.map((disk) => {
    const alternateNames = [disk.name, disk.by_path].filter((name) => name !== '');
    return omitEmpty<Storage>({
      name: disk.by_path !== '' ? disk.by_path : disk.name,
      alternateNames,
      rotational: disk.rotational,
      type: diskType(disk),
      sizeBytes: disk.size,
      vendor: disk.vendor,
      model: disk.model,
      serialNumber: disk.serial,
      wwn: disk.wwn,
      wwnVendorExtension: disk.wwn_vendor_extension,
      wwnWithExtension: disk.wwn_with_extension,
      hctl: disk.hctl,
    });
  });
}
