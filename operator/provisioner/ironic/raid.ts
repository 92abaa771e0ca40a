// RAID for manual cleaning (BMO's raid.go): which raid_interface the node needs, the target
// configuration Ironic's create_configuration step reads, and the clean steps themselves.
import type { CleanStep, LogicalDisk } from '../../../ironic-client/index.ts';
import type { HardwareRaidVolume, RaidConfig, SoftwareRaidVolume } from '../../api/raid.ts';
import { ironicRootDevice } from '../../devicehints/index.ts';
import { deepEqual } from '../../runtime/deep-equal.ts';

const NO_RAID = 'no-raid';
const SOFTWARE_RAID = 'agent';

export type RaidResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Go's nil and an absent field are the same; an empty list is not. */
const isSet = <T>(list: T[] | null | undefined): list is T[] => list !== null && list !== undefined;

/** The raid_interface the target needs: `agent` whenever software RAID is wanted or being removed. */
export function raidInterfaceFor(raidInterface: string, target: RaidConfig | undefined, actual: RaidConfig | undefined): RaidResult<string> {
  if (target === undefined) return { ok: true, value: raidInterface };
  const hardwareWanted = (target.hardwareRAIDVolumes?.length ?? 0) > 0;
  if (raidInterface === NO_RAID && hardwareWanted) {
    return { ok: false, message: `RAID settings are defined, but the node's driver ${raidInterface} does not support RAID` };
  }
  if (raidInterface === SOFTWARE_RAID && hardwareWanted) {
    return { ok: false, message: `hardware RAID settings are defined, but the node's driver ${raidInterface} only supports software RAID` };
  }
  if ((target.softwareRAIDVolumes?.length ?? 0) > 0) return { ok: true, value: SOFTWARE_RAID };
  if ((actual?.softwareRAIDVolumes?.length ?? 0) > 0) return { ok: true, value: SOFTWARE_RAID };
  return { ok: true, value: raidInterface };
}

function hardwareDisk(volume: HardwareRaidVolume): LogicalDisk {
  const disk: LogicalDisk = { size_gb: volume.sizeGibibytes ? volume.sizeGibibytes : 'MAX', raid_level: volume.level };
  if (volume.name) disk.volume_name = volume.name;
  if (volume.controller) disk.controller = volume.controller;
  if (volume.physicalDisks?.length) disk.physical_disks = [...volume.physicalDisks];
  if (volume.rotational !== undefined) disk.disk_type = volume.rotational ? 'hdd' : 'ssd';
  if (volume.numberOfPhysicalDisks !== undefined) disk.number_of_physical_disks = volume.numberOfPhysicalDisks;
  return disk;
}

function hardwareDisks(volumes: HardwareRaidVolume[]): RaidResult<LogicalDisk[]> {
  const names = new Map<string, number>();
  for (const [index, volume] of volumes.entries()) {
    if (volume.name) {
      const earlier = names.get(volume.name);
      if (earlier !== undefined) return { ok: false, message: `the names(${volume.name}) of volume[${index}] and volume[${earlier}] are repeated` };
      names.set(volume.name, index);
    }
    if (volume.physicalDisks?.length && !volume.controller) {
      return { ok: false, message: "'controller' must be specified if 'physicalDisks' are used" };
    }
    if (volume.numberOfPhysicalDisks !== undefined && volume.physicalDisks?.length && volume.numberOfPhysicalDisks !== volume.physicalDisks.length) {
      return {
        ok: false,
        message: `the numberOfPhysicalDisks[${volume.numberOfPhysicalDisks}] is not same as number of items in physicalDisks[${volume.physicalDisks.length}]`,
      };
    }
  }
  return { ok: true, value: volumes.map(hardwareDisk) };
}

function softwareDisks(volumes: SoftwareRaidVolume[]): RaidResult<LogicalDisk[]> {
  if (volumes[0] !== undefined && volumes[0].level !== '1') return { ok: false, message: 'the level in first volume of software raid must be RAID1' };
  return {
    ok: true,
    value: volumes.map((volume) => ({
      size_gb: volume.sizeGibibytes ? volume.sizeGibibytes : 'MAX',
      raid_level: volume.level,
      controller: 'software',
      is_root_volume: volume.rootVolume ?? false,
      ...(volume.physicalDisks?.length ? { physical_disks: volume.physicalDisks.map((hints) => ironicRootDevice(hints)) } : {}),
    })),
  };
}

/**
 * Ironic's target_raid_config logical disks. Without root device hints or a software root
 * volume, the first volume becomes the root volume.
 */
export function targetLogicalDisks(target: RaidConfig | undefined, options: { haveRootDeviceHints: boolean }): RaidResult<LogicalDisk[]> {
  if (target === undefined) return { ok: true, value: [] };
  let disks: RaidResult<LogicalDisk[]> = { ok: true, value: [] };
  if (target.hardwareRAIDVolumes?.length) disks = hardwareDisks(target.hardwareRAIDVolumes);
  else if (target.softwareRAIDVolumes?.length) disks = softwareDisks(target.softwareRAIDVolumes);
  if (!disks.ok || disks.value.length === 0) return disks;
  const softwareRoots = target.softwareRAIDVolumes?.filter((volume) => volume.rootVolume).length ?? 0;
  const [first] = disks.value;
  if (!options.haveRootDeviceHints && softwareRoots === 0 && first !== undefined) first.is_root_volume = true;
  return disks;
}

const step = (iface: CleanStep['interface'], name: string): CleanStep => ({ interface: iface, step: name });

/** Clean steps that turn `actual` into `target`; none when nothing changes. */
export function raidCleanSteps(raidInterface: string, target: RaidConfig | undefined, actual: RaidConfig | undefined): RaidResult<CleanStep[]> {
  const checked = raidInterfaceFor(raidInterface, target, actual);
  if (!checked.ok) return checked;
  if (target !== undefined && isSet(target.softwareRAIDVolumes)) {
    // Software RAID wins: hardware volumes are ignored on both sides.
    if (actual !== undefined && deepEqual(target.softwareRAIDVolumes, actual.softwareRAIDVolumes ?? null)) return { ok: true, value: [] };
    if (target.softwareRAIDVolumes.length === 0 && !actual?.softwareRAIDVolumes?.length) return { ok: true, value: [] };
    const steps = [step('raid', 'delete_configuration'), step('deploy', 'erase_devices_metadata')];
    if (target.softwareRAIDVolumes.length > 0) steps.push(step('raid', 'create_configuration'));
    return { ok: true, value: steps };
  }
  if (raidInterface === NO_RAID || target === undefined || !isSet(target.hardwareRAIDVolumes)) return { ok: true, value: [] };
  if (actual !== undefined && deepEqual(target.hardwareRAIDVolumes, actual.hardwareRAIDVolumes ?? null)) return { ok: true, value: [] };
  // delete first, so only the wanted volumes exist afterwards.
  const steps = [step('raid', 'delete_configuration')];
  if (target.hardwareRAIDVolumes.length > 0) steps.push(step('raid', 'create_configuration'));
  return { ok: true, value: steps };
}
