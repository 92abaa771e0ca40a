import { describe, expect, it } from '@jest/globals';
import type { AgentError } from '../agent-errors.ts';
import { testAgent, testSystem } from '../test-support/agent.ts';

const raidStep = (name: string) => ({ step: name, interface: 'raid', priority: 0 });
const nodeWith = (logicalDisks: unknown[]) => ({ uuid: 'node-uuid-1', properties: {}, target_raid_config: { logical_disks: logicalDisks } });

describe('software RAID clean steps (IPA GenericHardwareManager)', () => {
  it('creates the md devices of target_raid_config, answers the config Ironic stores as raid_config, and deletes them', async () => {
    const { agent, records } = testAgent();
    const logicalDisks = [
      { size_gb: 10, raid_level: '1', controller: 'software', is_root_volume: true, physical_disks: [{ name: '/dev/sda' }, { name: '/dev/sdb' }] },
      { size_gb: 'MAX', raid_level: '0', controller: 'software', is_root_volume: false },
    ];
    const node = nodeWith(logicalDisks);
    const created = await agent.execute('clean.execute_clean_step', { step: raidStep('create_configuration'), node, ports: [] }, { wait: true });
    expect(created.command_status).toBe('SUCCEEDED');
    expect(created.command_result).toMatchObject({ clean_result: { logical_disks: logicalDisks } });
    const afterCreate = records.get(testSystem().uuid)!;
    expect(afterCreate.softwareRaidVolumes).toEqual([
      { device: '/dev/md0', level: '1', sizeGb: 10, rootVolume: true, members: ['/dev/sda', '/dev/sdb'] },
      { device: '/dev/md1', level: '0', sizeGb: 'MAX', rootVolume: false, members: ['/dev/sda', '/dev/sdb', '/dev/nvme0n1'] },
    ]);
    // Arrays already there: IPA's create would find the partitions in use.
    const again = await agent.execute('clean.execute_clean_step', { step: raidStep('create_configuration'), node, ports: [] }, { wait: true });
    expect(again.command_status).toBe('FAILED');

    const deleted = await agent.execute('clean.execute_clean_step', { step: raidStep('delete_configuration'), node, ports: [] }, { wait: true });
    expect(deleted.command_status).toBe('SUCCEEDED');
    const afterDelete = records.get(testSystem().uuid)!;
    expect(afterDelete.softwareRaidVolumes).toEqual([]);
    expect(afterDelete.raidConfigurations.map((entry) => [entry.step, entry.volumes.map((volume) => volume.device), entry.nodeUuid])).toEqual([
      ['create_configuration', ['/dev/md0', '/dev/md1'], 'node-uuid-1'],
      ['delete_configuration', ['/dev/md0', '/dev/md1'], 'node-uuid-1'],
    ]);
  });

  it('answers nothing for a hardware-only configuration and creates nothing', async () => {
    const { agent, records } = testAgent();
    const node = nodeWith([{ size_gb: 'MAX', raid_level: '1', controller: 'RAID.Integrated.1-1' }]);
    const result = await agent.execute('clean.execute_clean_step', { step: raidStep('create_configuration'), node, ports: [] }, { wait: true });
    expect(result.command_result).toMatchObject({ clean_result: {} });
    expect(records.get(testSystem().uuid)!.raidConfigurations).toEqual([]);
  });

  it.each([
    ['a hint no disk matches', [{ size_gb: 'MAX', raid_level: '1', controller: 'software', physical_disks: [{ name: '/dev/sdz' }, { name: '/dev/sda' }] }], 'No candidates for physical disk'],
    ['too few members for the level', [{ size_gb: 'MAX', raid_level: '1+0', controller: 'software' }], 'needs at least 4 devices'],
    ['MAX before the last volume', [
      { size_gb: 'MAX', raid_level: '1', controller: 'software' }, { size_gb: 10, raid_level: '0', controller: 'software' },
    ], "Only the last logical disk can have its size set to 'MAX'"],
  ])('fails the step with a SoftwareRAIDError for %s', async (_name, logicalDisks, message) => {
    const { agent, records } = testAgent();
    const result = await agent.execute('clean.execute_clean_step', { step: raidStep('create_configuration'), node: nodeWith(logicalDisks), ports: [] }, { wait: true });
    expect(result.command_status).toBe('FAILED');
    const error = result.command_error as ReturnType<AgentError['serialize']>;
    expect(error.type).toBe('SoftwareRAIDError');
    expect(error.details).toContain(message);
    expect(records.get(testSystem().uuid)!.softwareRaidVolumes).toEqual([]);
  });
});
