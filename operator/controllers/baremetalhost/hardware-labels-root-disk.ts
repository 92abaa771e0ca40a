import type { Storage } from '../../api/hardware-details.ts';
import type { RootDeviceHints } from '../../api/root-device-hints.ts';

const GiB = 1024 ** 3;
/** IPA's guess_root_disk ignores anything smaller than this. */
const MIN_ROOT_DISK_BYTES = 4 * GiB;

const DEV_PREFIX = '/dev/';

function sameName(a: string, b: string): boolean {
  const normalize = (name: string) => (name.startsWith(DEV_PREFIX) ? name : `${DEV_PREFIX}${name}`).toLowerCase();
  return normalize(a) === normalize(b);
}

/** IPA compares string hints without regard to case. */
function equalsIgnoringCase(actual: string | undefined, expected: string): boolean {
  return actual !== undefined && actual.toLowerCase() === expected.toLowerCase();
}

function containsIgnoringCase(actual: string | undefined, expected: string): boolean {
  return actual !== undefined && actual.toLowerCase().includes(expected.toLowerCase());
}

function isRotational(disk: Storage): boolean | undefined {
  return disk.rotational ?? (disk.type === undefined ? undefined : disk.type === 'HDD');
}

/** BMO's hint map as IPA applies it: names exact (/dev/X or by-path), model and vendor substrings, size a lower bound in whole GiB. */
function matches(disk: Storage, hints: RootDeviceHints): boolean {
  const names = [disk.name, ...(disk.alternateNames ?? [])].filter((name): name is string => Boolean(name));
  if (hints.deviceName && !names.some((name) => sameName(name, hints.deviceName!))) return false;
  if (hints.hctl && !equalsIgnoringCase(disk.hctl, hints.hctl)) return false;
  if (hints.model && !containsIgnoringCase(disk.model, hints.model)) return false;
  if (hints.vendor && !containsIgnoringCase(disk.vendor, hints.vendor)) return false;
  if (hints.serialNumber && !equalsIgnoringCase(disk.serialNumber, hints.serialNumber)) return false;
  if (hints.minSizeGigabytes && (disk.sizeBytes === undefined || Math.floor(disk.sizeBytes / GiB) < Math.trunc(hints.minSizeGigabytes))) return false;
  if (hints.wwn && !equalsIgnoringCase(disk.wwn, hints.wwn)) return false;
  if (hints.wwnWithExtension && !equalsIgnoringCase(disk.wwnWithExtension, hints.wwnWithExtension)) return false;
  if (hints.wwnVendorExtension && !equalsIgnoringCase(disk.wwnVendorExtension, hints.wwnVendorExtension)) return false;
  if (hints.rotational !== undefined && isRotational(disk) !== hints.rotational) return false;
  return true;
}

function hasHints(hints: RootDeviceHints): boolean {
  return Object.values(hints).some((value) => value !== undefined && value !== '' && value !== 0);
}

/**
 * The disk Ironic's agent writes the image to: the first disk (inventory order) matching
 * every root device hint, or without hints IPA's default, the smallest disk of at least
 * 4 GiB. Undefined hints mean a software RAID root: no single disk.
 */
export function rootDisk(storage: readonly Storage[], hints: RootDeviceHints | undefined): Storage | undefined {
  if (hints === undefined) return undefined;
  if (hasHints(hints)) return storage.find((disk) => matches(disk, hints));
  return [...storage]
    .filter((disk) => disk.sizeBytes !== undefined && disk.sizeBytes >= MIN_ROOT_DISK_BYTES)
    .sort((a, b) => a.sizeBytes! - b.sizeBytes!)[0];
}
