import { IsoFormatError, type Iso9660Image } from './iso9660.ts';

/**
 * The El Torito boot catalog of a CD: which platforms it boots and from where.
 * A server's firmware starts a CD only through an entry for its own platform
 * (x86 BIOS, or EFI for UEFI firmware).
 */

const ENTRY_SIZE = 32;
const HEADER_VALIDATION = 0x01;
const BOOTABLE = 0x88;
const SECTION_HEADER_MORE = 0x90;
const SECTION_HEADER_FINAL = 0x91;
const EXTENSION = 0x44;
/** Plenty for any real catalog (one block holds 64 entries). */
const MAX_ENTRIES = 256;

export type BootPlatform = 'x86' | 'ppc' | 'mac' | 'efi' | `unknown-${number}`;

export interface BootEntry {
  platform: BootPlatform;
  bootable: boolean;
  /** Logical block (of 2048 bytes) holding the boot image: the EFI system partition on an EFI entry. */
  loadBlock: number;
  /** Virtual 512-byte sectors the firmware loads from there. */
  sectorCount: number;
}

export function platformName(id: number): BootPlatform {
  switch (id) {
    case 0x00:
      return 'x86';
    case 0x01:
      return 'ppc';
    case 0x02:
      return 'mac';
    case 0xef:
      return 'efi';
    default:
      return `unknown-${id}`;
  }
}

/** The catalog's boot entries, default entry first; empty when the disc has no catalog. */
export function readBootCatalog(image: Iso9660Image): BootEntry[] {
  if (image.bootCatalogBlock === undefined) return [];
  const catalog = image.readBlocks(image.bootCatalogBlock, image.blockSize);
  const validation = catalog.subarray(0, ENTRY_SIZE);
  if (validation[0] !== HEADER_VALIDATION || validation[30] !== 0x55 || validation[31] !== 0xaa) {
    throw new IsoFormatError('the El Torito boot catalog has no validation entry');
  }
  const entries: BootEntry[] = [entryAt(catalog, ENTRY_SIZE, platformName(validation[1] ?? 0))];
  let offset = 2 * ENTRY_SIZE;
  let platform = entries[0]!.platform;
  let remainingInSection = 0;
  let finalSection = false;
  for (let count = 0; count < MAX_ENTRIES && offset + ENTRY_SIZE <= catalog.length; count++, offset += ENTRY_SIZE) {
    const indicator = catalog[offset];
    if (indicator === EXTENSION) continue;
    if (remainingInSection > 0) {
      entries.push(entryAt(catalog, offset, platform));
      remainingInSection--;
      continue;
    }
    if (finalSection || (indicator !== SECTION_HEADER_MORE && indicator !== SECTION_HEADER_FINAL)) break;
    finalSection = indicator === SECTION_HEADER_FINAL;
    platform = platformName(catalog[offset + 1] ?? 0);
    remainingInSection = catalog.readUInt16LE(offset + 2);
  }
  return entries;
}

function entryAt(catalog: Buffer, offset: number, platform: BootPlatform): BootEntry {
  return {
    platform,
    bootable: catalog[offset] === BOOTABLE,
    sectorCount: catalog.readUInt16LE(offset + 6),
    loadBlock: catalog.readUInt32LE(offset + 8),
  };
}
