import type { RootDeviceHints } from './root-device-hints.ts';

// Deprecated hardware profiles survive only as default root device hints.

export const DEFAULT_PROFILE_NAME = 'unknown';
export const EMPTY_PROFILE_NAME = 'empty';

const PROFILE_HINTS: ReadonlyMap<string, RootDeviceHints> = new Map([
  [DEFAULT_PROFILE_NAME, { deviceName: '/dev/sda' }],
  ['libvirt', { deviceName: '/dev/vda' }],
  ['dell', { hctl: '0:0:0:0' }],
  ['dell-raid', { hctl: '0:2:0:0' }],
  ['openstack', { deviceName: '/dev/vdb' }],
  [EMPTY_PROFILE_NAME, {}],
]);

export const HARDWARE_PROFILE_NAMES: readonly string[] = [...PROFILE_HINTS.keys()];

export type ProfileHintsResult = { ok: true; hints: RootDeviceHints } | { ok: false; message: string };

/** The profile's default hints (a copy); `empty` has none. Unknown names fail as in BMO. */
export function profileRootDeviceHints(profileName: string): ProfileHintsResult {
  const hints = PROFILE_HINTS.get(profileName);
  if (hints === undefined) return { ok: false, message: `no hardware profile named ${JSON.stringify(profileName)}` };
  return { ok: true, hints: { ...hints } };
}

/**
 * The profile recorded for a host: the status value once set, else the spec's, else `libvirt`
 * for libvirt BMCs, else `unknown`.
 */
export function hardwareProfileName(options: { statusProfile?: string; specProfile?: string; bmcAddress?: string }): string {
  if (options.statusProfile) return options.statusProfile;
  if (options.specProfile) return options.specProfile;
  if (options.bmcAddress?.startsWith('libvirt')) return 'libvirt';
  return DEFAULT_PROFILE_NAME;
}
