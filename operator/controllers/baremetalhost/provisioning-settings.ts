import type { BareMetalHostStatus } from '../../api/baremetalhost.ts';
import type { RaidConfig } from '../../api/raid.ts';
import { hardwareProfileName, hostRootDeviceHints } from '../../devicehints/index.ts';
import { deepEqual } from '../../runtime/deep-equal.ts';
import type { Host } from './host.ts';

export type SettingsResult = { ok: true; changed: boolean } | { ok: false; message: string };

/** The hardware profile BMO records: status first, then spec, then one guessed from the BMC. */
export function profileNameOf(host: Host): string {
  return hardwareProfileName({
    statusProfile: host.status.hardwareProfile,
    specProfile: host.spec.hardwareProfile,
    bmcAddress: host.spec.bmc?.address,
  });
}

/** Stores the root device hints to use (spec, else profile; none with a software RAID root) in `status`. */
export function updateRootDeviceHints(host: Host, status: BareMetalHostStatus): SettingsResult {
  const softwareRAIDVolumes = host.spec.raid?.softwareRAIDVolumes ?? undefined;
  const hints = hostRootDeviceHints({
    specHints: host.spec.rootDeviceHints,
    hardwareProfile: profileNameOf(host),
    raid: softwareRAIDVolumes ? { softwareRAIDVolumes } : undefined,
  });
  if (!hints.ok) return { ok: false, message: hints.message };
  if (deepEqual(hints.hints, status.provisioning.rootDeviceHints)) return { ok: true, changed: false };
  if (hints.hints === undefined) delete status.provisioning.rootDeviceHints;
  else status.provisioning.rootDeviceHints = structuredClone(hints.hints);
  return { ok: true, changed: true };
}

function isEmptyRaid(raid: RaidConfig | undefined): boolean {
  return raid === undefined || (raid.hardwareRAIDVolumes == null && raid.softwareRAIDVolumes == null);
}

/**
 * BMO's `saveHostProvisioningSettings`: copies root device hints and RAID into `status`.
 * No RAID in the spec keeps existing hardware volumes but clears software ones.
 */
export function saveProvisioningSettings(host: Host, status: BareMetalHostStatus): SettingsResult {
  const hints = updateRootDeviceHints(host, status);
  if (!hints.ok) return hints;
  let wanted = host.spec.raid;
  if (isEmptyRaid(wanted) && status.provisioning.raid !== undefined) {
    const hardware = status.provisioning.raid.hardwareRAIDVolumes;
    wanted = { ...(hardware?.length ? { hardwareRAIDVolumes: hardware } : {}), softwareRAIDVolumes: [] };
  }
  if (deepEqual(status.provisioning.raid, wanted)) return hints;
  if (wanted === undefined) delete status.provisioning.raid;
  else status.provisioning.raid = structuredClone(wanted);
  return { ok: true, changed: true };
}

/** Whether preparing has something to apply, computed on a copy (BMO's `getHostProvisioningSettings`). */
export function pendingProvisioningSettings(host: Host): { ok: true; changed: boolean; status: BareMetalHostStatus } | { ok: false; message: string } {
  const status = structuredClone(host.status);
  const result = saveProvisioningSettings(host, status);
  return result.ok ? { ok: true, changed: result.changed, status } : result;
}
