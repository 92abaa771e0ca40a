import { gzipSync } from 'node:zlib';

const BLOCK = 512;

function writeField(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value.slice(0, length), offset, length, 'ascii');
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

/** One regular file as a ustar entry (header block plus data padded to whole blocks). */
function tarEntry(name: string, content: Buffer, mtimeSeconds: number): Buffer {
  const header = Buffer.alloc(BLOCK);
  writeField(header, 0, 100, name);
  writeField(header, 100, 8, octal(0o644, 8));
  writeField(header, 108, 8, octal(0, 8));
  writeField(header, 116, 8, octal(0, 8));
  writeField(header, 124, 12, octal(content.length, 12));
  writeField(header, 136, 12, octal(mtimeSeconds, 12));
  writeField(header, 148, 8, ' '.repeat(8)); // checksum is computed over spaces in its own field
  writeField(header, 156, 1, '0');
  writeField(header, 257, 6, 'ustar\0');
  writeField(header, 263, 2, '00');
  writeField(header, 265, 32, 'root');
  writeField(header, 297, 32, 'root');
  let checksum = 0;
  for (const byte of header) checksum += byte;
  writeField(header, 148, 8, `${checksum.toString(8).padStart(6, '0')}\0 `);
  const padding = Buffer.alloc((BLOCK - (content.length % BLOCK)) % BLOCK);
  return Buffer.concat([header, content, padding]);
}

/** What IPA's log collection returns: a base64 gzipped tarball (here with a single journal file). */
export function systemLogsArchive(journal: string, now = new Date()): string {
  const entry = tarEntry('journal', Buffer.from(journal, 'utf8'), Math.floor(now.getTime() / 1000));
  const endOfArchive = Buffer.alloc(2 * BLOCK);
  return gzipSync(Buffer.concat([entry, endOfArchive])).toString('base64');
}
