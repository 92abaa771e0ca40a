import { readSystemUseName } from './rock-ridge.ts';

/**
 * A read-only ISO 9660 (ECMA-119) reader over an image held in memory: the volume
 * descriptors, the directory tree (Rock Ridge names when present, else the plain
 * ISO names without their ";1" version) and file contents. Enough to do what a
 * server's firmware and boot loader do with a virtual CD: find the El Torito boot
 * catalog and read the boot loader's configuration file.
 */

const FIRST_DESCRIPTOR_SECTOR = 16;
const DESCRIPTOR_SIZE = 2048;
const STANDARD_ID = 'CD001';
const TYPE_BOOT_RECORD = 0;
const TYPE_PRIMARY = 1;
const TYPE_TERMINATOR = 255;
const EL_TORITO_ID = 'EL TORITO SPECIFICATION';
const FLAG_DIRECTORY = 0x02;
/** Guards against descriptor loops in a damaged image. */
const MAX_DESCRIPTORS = 64;

export class IsoFormatError extends Error {
  override readonly name = 'IsoFormatError';
}

export interface IsoEntry {
  name: string;
  isDirectory: boolean;
  /** First logical block of the file or directory data. */
  extent: number;
  size: number;
}

export class Iso9660Image {
  readonly #bytes: Buffer;
  readonly volumeId: string;
  readonly blockSize: number;
  /** Logical block of the El Torito boot catalog; undefined when the disc is not bootable. */
  readonly bootCatalogBlock: number | undefined;
  readonly #root: IsoEntry;

  constructor(bytes: Uint8Array) {
    this.#bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let primary: Buffer | undefined;
    let bootCatalogBlock: number | undefined;
    for (let index = 0; index < MAX_DESCRIPTORS; index++) {
      const offset = (FIRST_DESCRIPTOR_SECTOR + index) * DESCRIPTOR_SIZE;
      if (offset + DESCRIPTOR_SIZE > this.#bytes.length) break;
      const descriptor = this.#bytes.subarray(offset, offset + DESCRIPTOR_SIZE);
      if (descriptor.toString('latin1', 1, 6) !== STANDARD_ID) break;
      const type = descriptor[0];
      if (type === TYPE_TERMINATOR) break;
      if (type === TYPE_PRIMARY && primary === undefined) primary = descriptor;
      if (type === TYPE_BOOT_RECORD && descriptor.toString('latin1', 7, 39).replace(/\0+$/, '') === EL_TORITO_ID) {
        bootCatalogBlock = descriptor.readUInt32LE(71);
      }
    }
    if (primary === undefined) {
      throw new IsoFormatError(`not an ISO 9660 image: no primary volume descriptor from sector ${FIRST_DESCRIPTOR_SECTOR}`);
    }
    this.volumeId = primary.toString('latin1', 40, 72).trimEnd();
    this.blockSize = primary.readUInt16LE(128);
    if (this.blockSize < 512 || (this.blockSize & (this.blockSize - 1)) !== 0) {
      throw new IsoFormatError(`invalid logical block size ${this.blockSize}`);
    }
    this.bootCatalogBlock = bootCatalogBlock;
    const root = parseRecord(primary, 156);
    if (root === undefined || !root.isDirectory) throw new IsoFormatError('the root directory record is invalid');
    this.#root = { ...root, name: '' };
  }

  /** The bytes of `count` bytes from logical block `block` (a view, not a copy). */
  readBlocks(block: number, bytes: number): Buffer {
    const start = block * this.blockSize;
    if (start + bytes > this.#bytes.length) {
      throw new IsoFormatError(`data at block ${block} (${bytes} bytes) lies beyond the end of the image`);
    }
    return this.#bytes.subarray(start, start + bytes);
  }

  /** The entries of a directory ("/" or "/EFI/BOOT"), without "." and ".."; undefined if there is none. */
  list(path: string): IsoEntry[] | undefined {
    const directory = this.#lookup(path);
    return directory?.isDirectory === true ? this.#entries(directory) : undefined;
  }

  /** A file's contents; undefined if the path is missing or a directory. */
  readFile(path: string): Buffer | undefined {
    const entry = this.#lookup(path);
    if (entry === undefined || entry.isDirectory) return undefined;
    return this.readBlocks(entry.extent, entry.size);
  }

  /** Every file path in the image, depth first, directories in recorded order. */
  filePaths(): string[] {
    const paths: string[] = [];
    const visited = new Set<number>();
    const walk = (directory: IsoEntry, prefix: string) => {
      // A damaged image could point a directory at an ancestor.
      if (visited.has(directory.extent)) return;
      visited.add(directory.extent);
      for (const entry of this.#entries(directory)) {
        const path = `${prefix}/${entry.name}`;
        if (entry.isDirectory) walk(entry, path);
        else paths.push(path);
      }
    };
    walk(this.#root, '');
    return paths;
  }

  /** Path components match exactly, else case-insensitively (plain ISO names are upper case). */
  #lookup(path: string): IsoEntry | undefined {
    let current: IsoEntry = this.#root;
    for (const part of path.split('/').filter((segment) => segment !== '')) {
      if (!current.isDirectory) return undefined;
      const entries = this.#entries(current);
      const next =
        entries.find((entry) => entry.name === part) ??
        entries.find((entry) => entry.name.toLowerCase() === part.toLowerCase());
      if (next === undefined) return undefined;
      current = next;
    }
    return current;
  }

  #entries(directory: IsoEntry): IsoEntry[] {
    const data = this.readBlocks(directory.extent, directory.size);
    const entries: IsoEntry[] = [];
    let offset = 0;
    while (offset < data.length) {
      const length = data[offset] ?? 0;
      if (length === 0) {
        // Records never straddle a block: a zero length means the rest of this block is padding.
        offset = (Math.floor(offset / this.blockSize) + 1) * this.blockSize;
        continue;
      }
      const record = parseRecord(data, offset, (block, size) => this.readBlocks(block, size));
      if (record === undefined) throw new IsoFormatError(`bad directory record at byte ${offset} of block ${directory.extent}`);
      if (record.name !== '.' && record.name !== '..') entries.push(record);
      offset += length;
    }
    return entries;
  }
}

/**
 * One directory record (ECMA-119 9.1). With `readBlocks`, a Rock Ridge NM name in
 * the system use area wins over the ISO file identifier.
 */
function parseRecord(
  data: Buffer,
  offset: number,
  readBlocks?: (block: number, bytes: number) => Buffer,
): IsoEntry | undefined {
  const length = data[offset] ?? 0;
  if (length < 34 || offset + length > data.length) return undefined;
  const record = data.subarray(offset, offset + length);
  const nameLength = record[32] ?? 0;
  if (33 + nameLength > length) return undefined;
  const identifier = record.subarray(33, 33 + nameLength);
  const isDirectory = ((record[25] ?? 0) & FLAG_DIRECTORY) !== 0;
  let name: string;
  if (nameLength === 1 && identifier[0] === 0) name = '.';
  else if (nameLength === 1 && identifier[0] === 1) name = '..';
  else {
    name = identifier.toString('latin1');
    // "VMLINUZ.;1" -> "VMLINUZ": drop the version, then the dot of an extension-less name.
    if (!isDirectory) name = name.replace(/;\d+$/, '').replace(/\.$/, '');
    // The system use area starts after the identifier and its padding byte (even lengths).
    const systemUse = record.subarray(33 + nameLength + (nameLength % 2 === 0 ? 1 : 0));
    const rockRidgeName = readBlocks === undefined ? undefined : readSystemUseName(systemUse, readBlocks);
    if (rockRidgeName !== undefined && rockRidgeName !== '') name = rockRidgeName;
  }
  return { name, isDirectory, extent: record.readUInt32LE(2), size: record.readUInt32LE(10) };
}
