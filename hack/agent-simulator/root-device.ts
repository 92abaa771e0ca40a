import type { InventoryDisk } from './inventory-types.ts';

const GiB = 1024 ** 3;
/** IPA's guess_root_disk ignores anything smaller than this. */
const MIN_ROOT_DISK_BYTES = 4 * GiB;

const STRING_HINTS = new Set([
  'model', 'wwn', 'serial', 'vendor', 'wwn_with_extension', 'wwn_vendor_extension', 'name', 'hctl', 'by_path',
]);

export type RootDeviceHints = Record<string, unknown>;

/** IPA's default root device: the smallest disk of at least 4 GiB. */
export function guessRootDisk(disks: readonly InventoryDisk[]): InventoryDisk | undefined {
  return [...disks].sort((a, b) => a.size - b.size).find((disk) => disk.size >= MIN_ROOT_DISK_BYTES);
}

function normalizeName(value: string): string {
  return value.startsWith('/dev/') ? value : `/dev/${value}`;
}

function matchesString(deviceValue: string | null, expression: string, hint: string): boolean {
  if (deviceValue === null || deviceValue === '') return false;
  const normalize = (value: string) => (hint === 'name' ? normalizeName(value.trim()) : value.trim()).toLowerCase();
  const actual = normalize(deviceValue);
  const trimmed = expression.trim();
  if (trimmed.startsWith('<or>')) {
    return trimmed
      .split('<or>')
      .map((value) => value.trim())
      .filter((value) => value !== '')
      .some((value) => normalize(value) === actual);
  }
  if (trimmed.startsWith('<in>')) return actual.includes(trimmed.slice('<in>'.length).trim().toLowerCase());
  if (trimmed.startsWith('s!=')) return actual !== normalize(trimmed.slice(3));
  if (trimmed.startsWith('s==')) return actual === normalize(trimmed.slice(3));
  return actual === normalize(trimmed);
}

function matchesNumber(deviceValue: number, expression: string): boolean {
  const match = /^\s*(>=|<=|==|!=|=|>|<)?\s*(-?\d+(?:\.\d+)?)\s*$/.exec(expression);
  if (match === null) throw new Error(`unsupported size hint "${expression}"`);
  const expected = Number(match[2]);
  switch (match[1]) {
    case '>=':
    case '=': // oslo's specs matcher treats a bare "=" as ">=" for legacy reasons
      return deviceValue >= expected;
    case '<=':
      return deviceValue <= expected;
    case '>':
      return deviceValue > expected;
    case '<':
      return deviceValue < expected;
    case '!=':
      return deviceValue !== expected;
    default:
      // Sizes are whole GiB in hints; IPA compares the integer part of the device size.
      return Math.floor(deviceValue) === expected;
  }
}

function matchesHint(disk: InventoryDisk, hint: string, expected: unknown): boolean {
  if (hint === 'size') return matchesNumber(disk.size / GiB, String(expected));
  if (hint === 'rotational') {
    const wanted = typeof expected === 'boolean' ? expected : ['true', '1', 'yes', 'on'].includes(String(expected).toLowerCase());
    return disk.rotational === wanted;
  }
  if (STRING_HINTS.has(hint)) {
    const value = disk[hint as keyof InventoryDisk];
    return matchesString(typeof value === 'string' ? value : null, String(expected), hint);
  }
  throw new Error(`unknown root device hint "${hint}"`);
}

/** All disks satisfying every hint (the subset of Ironic's hint grammar Metal3 uses). */
export function findDisksByHints(disks: readonly InventoryDisk[], hints: RootDeviceHints): InventoryDisk[] {
  return disks.filter((disk) => Object.entries(hints).every(([hint, expected]) => matchesHint(disk, hint, expected)));
}

/** The disk IPA writes the image to: by root device hints when given, else its default guess. */
export function pickRootDisk(disks: readonly InventoryDisk[], hints: RootDeviceHints | undefined): InventoryDisk | undefined {
  if (hints === undefined || Object.keys(hints).length === 0) return guessRootDisk(disks);
  return findDisksByHints(disks, hints)[0];
}
