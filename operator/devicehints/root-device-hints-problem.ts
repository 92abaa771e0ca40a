import type { RootDeviceHints } from './root-device-hints.ts';

/** The webhook's check on `deviceName`: a node directly in /dev or in /dev/disk/by-path. */
export function rootDeviceHintsProblem(hints: RootDeviceHints | undefined): string | undefined {
  const deviceName = hints?.deviceName;
  if (!deviceName) return undefined;
  if (!deviceName.startsWith('/dev/')) {
    return `device name of root device hint must be a /dev/ path, not "${deviceName}"`;
  }
  const withinDev = deviceName.slice('/dev/'.length);
  const leaf = withinDev.startsWith('disk/by-path/') ? withinDev.slice('disk/by-path/'.length) : withinDev;
  if (leaf.includes('/')) {
    return `device name of root device hint must be path in /dev/ or /dev/disk/by-path/, not "${deviceName}"`;
  }
  return undefined;
}
