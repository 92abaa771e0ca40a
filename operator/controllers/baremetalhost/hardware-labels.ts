import type { HardwareDetails, Nic, Storage } from '../../api/hardware-details.ts';
import {
  HARDWARE_CPU_ARCH_LABEL,
  HARDWARE_CPU_COUNT_LABEL,
  HARDWARE_DISK_GIB_LABEL,
  HARDWARE_DISK_TYPE_LABEL,
  HARDWARE_NIC_COUNT_LABEL,
  HARDWARE_RAM_GIB_LABEL,
} from '../../api/labels.ts';
import type { HardwareDiskTypeValue, HardwareLabel } from '../../api/labels.ts';
import type { RootDeviceHints } from '../../api/root-device-hints.ts';
import { rootDisk } from './hardware-labels-root-disk.ts';

/** The hardware labels a host should carry; a key is absent when the hardware does not say. */
export type HardwareLabels = Partial<Record<HardwareLabel, string>>;

const GiB = 1024 ** 3;

/** Kubernetes label value syntax: at most 63 characters, alphanumerics at both ends. */
const LABEL_VALUE = /^(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

export function isLabelValue(value: string): boolean {
  return LABEL_VALUE.test(value);
}

/** Decimal strings, so selectors' `gt`/`lt` can compare them; nothing for a missing or nonsensical value. */
function count(value: number | undefined): string | undefined {
  return value !== undefined && Number.isInteger(value) && value >= 0 ? String(value) : undefined;
}

function diskType(disk: Storage): HardwareDiskTypeValue | undefined {
  if (disk.type !== undefined) return disk.type.toLowerCase() as HardwareDiskTypeValue;
  if (disk.rotational === undefined) return undefined;
  return disk.rotational ? 'hdd' : 'ssd';
}

/** One NIC appears once per IP family in status.hardware; count interfaces, not addresses. */
function nicCount(nics: readonly Nic[] | undefined): number | undefined {
  if (nics === undefined) return undefined;
  const identities = new Set<string>();
  let anonymous = 0;
  for (const nic of nics) {
    const identity = nic.mac?.toLowerCase() ?? nic.name;
    if (identity === undefined) anonymous += 1;
    else identities.add(identity);
  }
  return identities.size + anonymous;
}

export interface HardwareLabelsInput {
  hardware: HardwareDetails;
  /** The hints Ironic will get (spec, else hardware profile); undefined for a software RAID root. */
  rootDeviceHints: RootDeviceHints | undefined;
}

/**
 * The labels derived from a host's inspected hardware. The disk labels describe the root
 * disk, the one the image is written to (chosen as Ironic's agent does), because that is
 * what a user asking for "a host with at least N GiB of SSD" gets: the total of all disks
 * counts disks the OS never uses, and the largest one is often a data disk.
 */
export function hardwareLabels({ hardware, rootDeviceHints }: HardwareLabelsInput): HardwareLabels {
  const root = rootDisk(hardware.storage ?? [], rootDeviceHints);
  const candidates: Record<HardwareLabel, string | undefined> = {
    [HARDWARE_CPU_COUNT_LABEL]: count(hardware.cpu?.count),
    [HARDWARE_CPU_ARCH_LABEL]: hardware.cpu?.arch,
    [HARDWARE_RAM_GIB_LABEL]: count(hardware.ramMebibytes === undefined ? undefined : Math.floor(hardware.ramMebibytes / 1024)),
    [HARDWARE_DISK_GIB_LABEL]: count(root?.sizeBytes === undefined ? undefined : Math.floor(root.sizeBytes / GiB)),
    [HARDWARE_DISK_TYPE_LABEL]: root ? diskType(root) : undefined,
    [HARDWARE_NIC_COUNT_LABEL]: count(nicCount(hardware.nics)),
  };
  const labels: HardwareLabels = {};
  for (const [key, value] of Object.entries(candidates) as [HardwareLabel, string | undefined][]) {
    // An architecture string that is not a label value (never seen in practice) is left out, not mangled.
    if (value !== undefined && value !== '' && isLabelValue(value)) labels[key] = value;
  }
  return labels;
}
