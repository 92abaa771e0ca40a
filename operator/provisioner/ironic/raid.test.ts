import { describe, expect, it } from '@jest/globals';
import { raidCleanSteps, raidInterfaceFor, targetLogicalDisks } from './raid.ts';

const hardware = { hardwareRAIDVolumes: [{ level: '1' as const, sizeGibibytes: 100, name: 'root' }, { level: '5' as const }] };
const software = { softwareRAIDVolumes: [{ level: '1' as const, rootVolume: true }] };

describe('raid clean steps', () => {
  it('deletes and creates hardware volumes when the layout changes', () => {
    expect(raidCleanSteps('redfish', hardware, undefined)).toEqual({
      ok: true,
      value: [{ interface: 'raid', step: 'delete_configuration' }, { interface: 'raid', step: 'create_configuration' }],
    });
  });

  it('does nothing when the layout was applied already, or none is asked for', () => {
    expect(raidCleanSteps('redfish', hardware, structuredClone(hardware))).toEqual({ ok: true, value: [] });
    expect(raidCleanSteps('redfish', undefined, undefined)).toEqual({ ok: true, value: [] });
    expect(raidCleanSteps('redfish', { hardwareRAIDVolumes: null }, undefined)).toEqual({ ok: true, value: [] });
  });

  it('only deletes when hardware volumes are cleared', () => {
    expect(raidCleanSteps('redfish', { hardwareRAIDVolumes: [] }, hardware)).toEqual({ ok: true, value: [{ interface: 'raid', step: 'delete_configuration' }] });
  });

  it('erases metadata around software RAID', () => {
    expect(raidCleanSteps('redfish', software, undefined)).toEqual({
      ok: true,
      value: [
        { interface: 'raid', step: 'delete_configuration' },
        { interface: 'deploy', step: 'erase_devices_metadata' },
        { interface: 'raid', step: 'create_configuration' },
      ],
    });
  });

  it('refuses hardware RAID without a RAID interface', () => {
    expect(raidCleanSteps('no-raid', hardware, undefined)).toEqual({
      ok: false,
      message: "RAID settings are defined, but the node's driver no-raid does not support RAID",
    });
  });

  it('switches to the agent RAID interface for software RAID and when removing it', () => {
    expect(raidInterfaceFor('redfish', software, undefined)).toEqual({ ok: true, value: 'agent' });
    expect(raidInterfaceFor('redfish', { softwareRAIDVolumes: [] }, software)).toEqual({ ok: true, value: 'agent' });
    expect(raidInterfaceFor('redfish', hardware, undefined)).toEqual({ ok: true, value: 'redfish' });
  });
});

describe('target logical disks', () => {
  it('marks the first hardware volume as root without root device hints', () => {
    expect(targetLogicalDisks(hardware, { haveRootDeviceHints: false })).toEqual({
      ok: true,
      value: [
        { size_gb: 100, raid_level: '1', volume_name: 'root', is_root_volume: true },
        { size_gb: 'MAX', raid_level: '5' },
      ],
    });
    expect(targetLogicalDisks(hardware, { haveRootDeviceHints: true })).toMatchObject({ value: [{ volume_name: 'root' }, {}] });
  });

  it('builds software volumes with hint maps for member disks', () => {
    const config = { softwareRAIDVolumes: [{ level: '1' as const, rootVolume: true, physicalDisks: [{ deviceName: '/dev/sda' }, { deviceName: '/dev/sdb' }] }] };
    expect(targetLogicalDisks(config, { haveRootDeviceHints: false })).toEqual({
      ok: true,
      value: [{ size_gb: 'MAX', raid_level: '1', controller: 'software', is_root_volume: true, physical_disks: [{ name: 's== /dev/sda' }, { name: 's== /dev/sdb' }] }],
    });
  });

  it('rejects repeated volume names and a non-RAID-1 first software volume', () => {
    expect(targetLogicalDisks({ hardwareRAIDVolumes: [{ level: '1', name: 'a' }, { level: '0', name: 'a' }] }, { haveRootDeviceHints: false })).toEqual({
      ok: false,
      message: 'the names(a) of volume[1] and volume[0] are repeated',
    });
    expect(targetLogicalDisks({ softwareRAIDVolumes: [{ level: '0', rootVolume: false }] }, { haveRootDeviceHints: false })).toEqual({
      ok: false,
      message: 'the level in first volume of software raid must be RAID1',
    });
  });
});
