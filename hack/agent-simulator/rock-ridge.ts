/**
 * Rock Ridge (IEEE P1282) alternate names from a directory record's System Use
 * area (SUSP, IEEE P1281). mkisofs -r, which Ironic uses, records each file's real
 * name in NM entries; long ones may continue in a CE continuation area.
 */

const NM_CONTINUE = 0x01;
const NM_CURRENT = 0x02;
const NM_PARENT = 0x04;
/** CE chains are short in practice; the cap stops loops in damaged images. */
const MAX_CONTINUATIONS = 16;

/**
 * The NM name, or undefined when the area has none. SUSP's SP entry may tell a skip
 * length for the other records, but mkisofs and xorriso always write 0, so areas are
 * read from their first byte.
 */
export function readSystemUseName(
  area: Buffer,
  readBlocks: (block: number, bytes: number) => Buffer,
): string | undefined {
  let name: string | undefined;
  let current: Buffer | undefined = area;
  for (let hops = 0; current !== undefined && hops <= MAX_CONTINUATIONS; hops++) {
    let next: Buffer | undefined;
    let offset = 0;
    while (offset + 4 <= current.length) {
      const signature = current.toString('latin1', offset, offset + 2);
      const length = current[offset + 2] ?? 0;
      if (length < 4 || offset + length > current.length) break;
      const entry = current.subarray(offset, offset + length);
      if (signature === 'ST') break;
      if (signature === 'NM' && length >= 5) {
        const flags = entry[4] ?? 0;
        if ((flags & (NM_CURRENT | NM_PARENT)) === 0) {
          name = (name ?? '') + entry.toString('utf8', 5);
        }
        if ((flags & NM_CONTINUE) === 0 && name !== undefined) return name;
      }
      if (signature === 'CE' && length >= 28) {
        const block = entry.readUInt32LE(4);
        const start = entry.readUInt32LE(12);
        const size = entry.readUInt32LE(20);
        next = readBlocks(block, start + size).subarray(start);
      }
      offset += length;
    }
    current = next;
  }
  return name;
}
