import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RaidConfigurationRecord, SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import type { Host } from './hosts.ts';
import { inState, recordsSince, serverRecords, tearDownHostTest, waitForHost } from './hosts.ts';

// Software RAID on emulated server 76 (77 is kept for hardware RAID): a host with
// softwareRAIDVolumes goes through preparing, where Ironic's `agent` raid interface runs the
// manual clean steps raid.delete_configuration, deploy.erase_devices_metadata and
// raid.create_configuration on the agent simulator, which builds the md devices; then the spec
// changes on the available host and it is prepared again with the new volumes.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const minutes = (n: number) => n * 60_000;
const HOST = 'mirrored';
const system = env.systems[76]!;

interface RaidHost extends Host {
  spec: Host['spec'] & { raid?: { softwareRAIDVolumes?: unknown[] } };
  status?: Host['status'] & { provisioning?: { raid?: unknown; rootDeviceHints?: unknown } };
}
interface LogicalDisk { size_gb: number | 'MAX'; raid_level: string; controller?: string; is_root_volume?: boolean; physical_disks?: unknown[] }
interface IronicRaidNode {
  raid_interface: string;
  target_raid_config: { logical_disks?: LogicalDisk[] };
  raid_config: { logical_disks?: LogicalDisk[]; last_updated?: string };
  properties: { capabilities?: string };
}

let namespace = '';
let operator: OperatorProcess;
let baseline: SystemRecords;

const ironicNode = async (host: RaidHost) => ironic.request<IronicRaidNode>('GET', `/v1/nodes/${host.status!.provisioning!.ID!}`);
const raidSteps = (records: SystemRecords) => records.raidConfigurations.map((entry) => entry.step);
const at = (entry: { at: string }) => Date.parse(entry.at);

/** Available with `status.provisioning.raid` matching the spec: preparing finished with it. */
const preparedWith = (host: Host) => {
  const { spec, status } = host as RaidHost;
  return inState('available')(host) && JSON.stringify(status?.provisioning?.raid) === JSON.stringify(spec.raid);
};

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-raid');
  // The simulator keeps every run's records and the arrays earlier runs left on the disks.
  baseline = await serverRecords(env, system.uuid);
  operator = startOperatorProcess({ env, namespace, label: 'e2e-raid' });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${HOST}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
      {
        apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
        metadata: { name: HOST, namespace, annotations: { 'inspect.metal3.io': 'disabled' } },
        spec: {
          online: false, bootMACAddress: system.macs[0], automatedCleaningMode: 'disabled',
          bmc: { address: system.redfishAddress, credentialsName: `${HOST}-bmc` },
          raid: { softwareRAIDVolumes: [{ level: '1', rootVolume: true, physicalDisks: [{ deviceName: '/dev/sda' }, { deviceName: '/dev/sdb' }] }] },
        },
      },
    ],
  }));
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('software RAID through real Ironic and the agent', () => {
  it('builds the RAID-1 root volume on the two hinted disks while preparing, and records it in Ironic and status', async () => {
    const host = (await waitForHost(kubectl, namespace, HOST, preparedWith, { timeoutMs: minutes(4), failOnError: true })) as RaidHost;
    // A software root volume replaces root device hints (BMO's rule).
    expect(host.status?.provisioning?.rootDeviceHints).toBeUndefined();
    expect(host.status?.provisioning?.raid).toEqual({ softwareRAIDVolumes: [{ level: '1', rootVolume: true, physicalDisks: [{ deviceName: '/dev/sda' }, { deviceName: '/dev/sdb' }] }] });

    const wanted = { size_gb: 'MAX', raid_level: '1', controller: 'software', is_root_volume: true, physical_disks: [{ name: 's== /dev/sda' }, { name: 's== /dev/sdb' }] };
    const node = await ironicNode(host);
    expect(node.raid_interface).toBe('agent');
    expect(node.target_raid_config.logical_disks).toEqual([wanted]);
    // What the agent answered create_configuration with, stored by Ironic.
    expect(node.raid_config.logical_disks).toEqual([wanted]);
    expect(node.raid_config.last_updated).toBeDefined();
    expect(node.properties.capabilities?.split(',')).toContain('raid_level:1');

    // On the server: the old arrays went, the metadata was wiped, then md0 was built from sda and sdb.
    const records = recordsSince(await serverRecords(env, system.uuid), baseline);
    expect(raidSteps(records)).toEqual(['delete_configuration', 'create_configuration']);
    const [deleted, created] = records.raidConfigurations as [RaidConfigurationRecord, RaidConfigurationRecord];
    const md0 = { device: '/dev/md0', level: '1', sizeGb: 'MAX', rootVolume: true, members: ['/dev/sda', '/dev/sdb'] };
    expect(created.volumes).toEqual([md0]);
    expect(created.nodeUuid).toBe(host.status!.provisioning!.ID);
    expect(records.softwareRaidVolumes).toEqual([md0]);
    const metadataWipes = records.diskWipes.filter((wipe) => wipe.step === 'erase_devices_metadata');
    expect(metadataWipes.length).toBeGreaterThan(0);
    for (const wipe of metadataWipes) {
      expect(at(wipe)).toBeGreaterThanOrEqual(at(deleted));
      expect(at(wipe)).toBeLessThanOrEqual(at(created));
    }
    baseline = await serverRecords(env, system.uuid);
  }, minutes(5));

  it('prepares the available host again when its RAID spec changes, replacing the volumes', async () => {
    const volumes = [{ level: '1', sizeGibibytes: 20 }, { level: '0' }];
    await kubectl.ok(['patch', 'bmh', HOST, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { raid: { softwareRAIDVolumes: volumes } } })]);
    // status.provisioning.raid takes the new volumes only once their clean has started.
    const host = (await waitForHost(kubectl, namespace, HOST, preparedWith, { timeoutMs: minutes(4), failOnError: true })) as RaidHost;
    expect(host.status?.provisioning?.raid).toEqual({ softwareRAIDVolumes: volumes.map((volume) => ({ ...volume, rootVolume: false })) });
    // No software root volume now: the hardware profile's root device hints apply, so no volume is the root.
    expect(host.status?.provisioning?.rootDeviceHints).toEqual({ deviceName: '/dev/sda' });

    const wanted = [
      { size_gb: 20, raid_level: '1', controller: 'software', is_root_volume: false },
      { size_gb: 'MAX', raid_level: '0', controller: 'software', is_root_volume: false },
    ];
    const node = await ironicNode(host);
    expect(node.target_raid_config.logical_disks).toEqual(wanted);
    expect(node.raid_config.logical_disks).toEqual(wanted);

    const records = recordsSince(await serverRecords(env, system.uuid), baseline);
    expect(raidSteps(records)).toEqual(['delete_configuration', 'create_configuration']);
    const [deleted, created] = records.raidConfigurations as [RaidConfigurationRecord, RaidConfigurationRecord];
    expect(deleted.volumes.map((volume) => volume.device)).toEqual(['/dev/md0']);
    const everyDisk = ['/dev/sda', '/dev/sdb', '/dev/nvme0n1'];
    expect(created.volumes).toEqual([
      { device: '/dev/md0', level: '1', sizeGb: 20, rootVolume: false, members: everyDisk },
      { device: '/dev/md1', level: '0', sizeGb: 'MAX', rootVolume: false, members: everyDisk },
    ]);
    expect(records.softwareRaidVolumes).toEqual(created.volumes);
  }, minutes(6));
});
