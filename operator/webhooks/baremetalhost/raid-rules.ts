import type { HostUnderValidation } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

const RAID = 'spec.raid';

/** BMO's RAID rules: one kind of RAID, consistent disk lists, one RAID-1 root volume. */
export function raidViolations({ host }: HostUnderValidation): Violation[] {
  const raid = host.spec.raid;
  if (raid === undefined) return [];
  const hardware = raid.hardwareRAIDVolumes ?? [];
  const software = raid.softwareRAIDVolumes ?? [];
  const violations: Violation[] = [];
  if (hardware.length > 0 && software.length > 0) {
    violations.push({ field: RAID, message: 'hardwareRAIDVolumes and softwareRAIDVolumes can not be set at the same time' });
  }
  hardware.forEach((volume, index) => {
    const disks = volume.physicalDisks ?? [];
    const field = `${RAID}.hardwareRAIDVolumes[${index}]`;
    if (disks.length > 0 && !volume.controller) {
      violations.push({ field: `${field}.controller`, message: `'physicalDisks' specified without 'controller' in hardware RAID volume ${index}` });
    }
    if (volume.numberOfPhysicalDisks !== undefined && disks.length > 0 && volume.numberOfPhysicalDisks !== disks.length) {
      violations.push({
        field: `${field}.numberOfPhysicalDisks`,
        message: `the 'numberOfPhysicalDisks'[${volume.numberOfPhysicalDisks}] and number of 'physicalDisks'[${disks.length}] is not same for volume ${index}`,
      });
    }
  });
  const rootVolumes = software.filter((volume) => volume.rootVolume).length;
  if (rootVolumes > 1) {
    violations.push({ field: `${RAID}.softwareRAIDVolumes`, message: 'softwareRAIDVolumes[*].rootVolume can only be set once' });
  }
  if (rootVolumes === 1 && host.spec.rootDeviceHints !== undefined) {
    violations.push({ field: 'spec.rootDeviceHints', message: 'softwareRAIDVolumes[*].rootVolume and rootDeviceHints can not be set at the same time' });
  }
  software.forEach((volume, index) => {
    if (volume.rootVolume && volume.level !== '1') {
      violations.push({ field: `${RAID}.softwareRAIDVolumes[${index}].level`, message: `softwareRAIDVolumes[${index}] with rootVolume set must use RAID level 1` });
    }
  });
  return violations;
}
