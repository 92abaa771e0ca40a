// IPA's GenericHardwareManager software RAID (Ironic's `agent` raid interface): create_configuration
// builds md devices from the node's target_raid_config, delete_configuration removes them all.
// The devices live in the server's record, so they outlive ramdisk boots as real arrays do.
import { agentErrors } from '../agent-errors.ts';
import type { RamdiskAgent } from '../agent.ts';
import type { SoftwareRaidVolumeRecord } from '../records.ts';
import { findDisksByHints } from '../root-device.ts';
import { usableDisks } from './disks.ts';
import { asRecord } from './types.ts';

/** mdadm's minimum number of members per level. */
const MIN_MEMBERS: Readonly<Record<string, number>> = { '0': 2, '1': 2, '1+0': 4, '5': 3, '6': 4 };

type LogicalDisk = Record<string, unknown>;

function logicalDisks(agent: RamdiskAgent): LogicalDisk[] {
  const target = asRecord(agent.node?.target_raid_config);
  const disks = target?.logical_disks;
  return Array.isArray(disks) ? disks.map((disk) => asRecord(disk) ?? {}) : [];
}

/** IPA's get_block_devices_for_raid: each hint picks a disk not picked yet; no hints means every disk. */
function membersOf(agent: RamdiskAgent, disk: LogicalDisk): string[] {
  const devices = usableDisks(agent);
  const hints = disk.physical_disks;
  if (!Array.isArray(hints) || hints.length === 0) return devices.map((device) => device.name);
  const picked: string[] = [];
  for (const hint of hints) {
    const candidates = findDisksByHints(devices, asRecord(hint) ?? {}).map((device) => device.name);
    if (candidates.length === 0) {
      throw agentErrors.softwareRaid(`No candidates for physical disk ${JSON.stringify(hint)} from the list ${JSON.stringify(devices.map((d) => d.name))}`);
    }
    const next = candidates.find((name) => !picked.includes(name));
    if (next === undefined) {
      throw agentErrors.softwareRaid(`No candidates left for physical disk ${JSON.stringify(hint)} from the list ${JSON.stringify(candidates)} after picking ${JSON.stringify(picked)}`);
    }
    picked.push(next);
  }
  return picked;
}

function validate(disks: LogicalDisk[]): void {
  disks.forEach((disk, index) => {
    if (disk.controller !== 'software') throw agentErrors.softwareRaid('Software RAID configuration is not supported with mixed controllers');
    if (disk.size_gb === 'MAX' && index !== disks.length - 1) {
      throw agentErrors.softwareRaid("Only the last logical disk can have its size set to 'MAX'");
    }
    if (MIN_MEMBERS[String(disk.raid_level)] === undefined) throw agentErrors.softwareRaid(`RAID level ${String(disk.raid_level)} is not supported by software RAID`);
  });
}

export async function createSoftwareRaid(agent: RamdiskAgent, step: string): Promise<unknown> {
  const { systemUuid, records, logger } = agent.services;
  const disks = logicalDisks(agent);
  // IPA leaves hardware-only configurations to other hardware managers and answers nothing.
  if (!disks.some((disk) => disk.controller === 'software')) return {};
  validate(disks);
  if (records.softwareRaidVolumes(systemUuid).length > 0) {
    throw agentErrors.softwareRaid('Software RAID devices already exist; delete_configuration must run first');
  }
  const volumes: SoftwareRaidVolumeRecord[] = disks.map((disk, index) => {
    const members = membersOf(agent, disk);
    const level = String(disk.raid_level);
    if (members.length < MIN_MEMBERS[level]!) {
      throw agentErrors.softwareRaid(`RAID level ${level} needs at least ${MIN_MEMBERS[level]} devices, found ${JSON.stringify(members)}`);
    }
    return {
      device: `/dev/md${index}`,
      level,
      sizeGb: disk.size_gb === 'MAX' ? 'MAX' : Number(disk.size_gb),
      rootVolume: disk.is_root_volume === true,
      members,
    };
  });
  records.addRaidConfiguration(systemUuid, { nodeUuid: agent.node?.uuid ?? null, step: 'create_configuration', volumes }, volumes);
  logger.info('software RAID created', { systemUuid, step, devices: volumes.map((volume) => volume.device) });
  // Ironic stores what the agent answers as the node's raid_config: IPA answers the target it built.
  return asRecord(agent.node?.target_raid_config) ?? {};
}

export async function deleteSoftwareRaid(agent: RamdiskAgent, step: string): Promise<unknown> {
  const { systemUuid, records, logger } = agent.services;
  const volumes = records.softwareRaidVolumes(systemUuid);
  records.addRaidConfiguration(systemUuid, { nodeUuid: agent.node?.uuid ?? null, step: 'delete_configuration', volumes }, []);
  logger.info('software RAID deleted', { systemUuid, step, devices: volumes.map((volume) => volume.device) });
  return null;
}
