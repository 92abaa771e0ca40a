import { HARDWARE_LABELS } from '../../api/labels.ts';
import { hostRootDeviceHints } from '../../devicehints/index.ts';
import type { Predicate } from '../../runtime/predicates.ts';
import { hardwareLabels } from './hardware-labels.ts';
import type { HardwareLabels } from './hardware-labels.ts';
import type { Host } from './host.ts';
import { profileNameOf } from './provisioning-settings.ts';

/** A metadata.labels merge patch: a value sets a label, null removes it. */
export type LabelsPatch = Record<string, string | null>;

/**
 * The labels a host should carry, or undefined when it has no hardware details yet (then
 * nothing is touched). The root disk follows the hints the next provisioning will use.
 */
export function wantedHardwareLabels(host: Host): HardwareLabels | undefined {
  const hardware = host.status.hardware;
  if (!hardware) return undefined;
  const hints = hostRootDeviceHints({
    specHints: host.spec.rootDeviceHints,
    hardwareProfile: profileNameOf(host),
    raid: host.spec.raid ? { softwareRAIDVolumes: host.spec.raid.softwareRAIDVolumes ?? undefined } : undefined,
  });
  // An unknown hardware profile is reported by preparing; here it only means no known root disk.
  return hardwareLabels({ hardware, rootDeviceHints: hints.ok ? hints.hints : undefined });
}

/**
 * What turns `current` into `wanted` for our keys only, or undefined when they match.
 * Other labels, including users' own under the same prefix, are never touched.
 */
export function hardwareLabelsPatch(current: Readonly<Record<string, string>> | undefined, wanted: HardwareLabels): LabelsPatch | undefined {
  const patch: LabelsPatch = {};
  for (const key of HARDWARE_LABELS) {
    const value = wanted[key];
    const existing = current?.[key];
    if (value !== undefined && existing !== value) patch[key] = value;
    else if (value === undefined && existing !== undefined) patch[key] = null;
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/**
 * A change to one of our labels wakes the host, so a hand edit is put right at once
 * rather than at the next poll (label edits do not move the generation).
 */
export const hardwareLabelsChanged: Predicate = {
  update: (previous, next) => HARDWARE_LABELS.some((key) => previous.metadata.labels?.[key] !== next.metadata.labels?.[key]),
};
