import { profileRootDeviceHints } from './hardware-profiles.ts';
import type { RootDeviceHints } from './root-device-hints.ts';

export interface HostRootDeviceHintsOptions {
  specHints: RootDeviceHints | undefined;
  /** Name from `hardwareProfileName`. */
  hardwareProfile: string;
  raid?: { softwareRAIDVolumes?: ReadonlyArray<{ rootVolume?: boolean }> } | undefined;
}

export type HostRootDeviceHintsResult = { ok: true; hints: RootDeviceHints | undefined } | { ok: false; message: string };

/**
 * The hints BMO stores in `status.provisioning.rootDeviceHints`: none when a software RAID
 * volume is the root (Ironic then picks the RAID device), else the spec's, else the profile's.
 */
export function hostRootDeviceHints(options: HostRootDeviceHintsOptions): HostRootDeviceHintsResult {
  const rootVolumes = options.raid?.softwareRAIDVolumes?.filter((volume) => volume.rootVolume === true) ?? [];
  if (rootVolumes.length > 0) return { ok: true, hints: undefined };
  if (options.specHints !== undefined) return { ok: true, hints: options.specHints };
  const fromProfile = profileRootDeviceHints(options.hardwareProfile);
  if (!fromProfile.ok) return { ok: false, message: `failed to update root device hints: ${fromProfile.message}` };
  return { ok: true, hints: fromProfile.hints };
}
