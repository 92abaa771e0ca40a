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

// RAID through preparing, each host then changing its spec while available and prepared again.
// Software RAID on emulated server 76: Ironic's `agent` raid interface runs the manual clean
// steps raid.delete_configuration, deploy.erase_devices_metadata and raid.create_configuration
// on the agent simulator, which builds the md devices. Hardware RAID on server 77: Ironic's
// `redfish` raid interface deletes and creates Volumes on the emulated BMC's storage controller
// (hack/stack/sushy/fake_raid.py).
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const minutes = (n: number) => n * 60_000;
const HOST = 'mirrored';
const system = env.systems[76]!;
const HARDWARE_HOST = 'controller';
const hardwareSystem = env.systems[77]!;

interface RaidHost extends Host {
  spec: Host['spec'] & { raid?: { softwareRAIDVolumes?: unknown[] } };
  status?: Host['status'] & { provisioning?: { raid?: unknown; rootDeviceHints?: unknown } };
}
interface RedfishVolume { Id: string; Name: string; RAIDType?: string; CapacityBytes: number; Links: { Drives: { '@odata.id': string }[] } }
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

const authorization = `Basic ${Buffer.from(`${env.bmcCredentials!.username}:${env.bmcCredentials!.password}`).toString('base64')}`;
async function redfish<T>(path: string): Promise<T> {
  const response = await fetch(`${env.sushyUrl}${path}`, { headers: { authorization } });
  if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}
/** The Volumes on the emulated BMC's storage controller, as Redfish serves them. */
async function bmcVolumes(): Promise<RedfishVolume[]> {
  const collection = await redfish<{ Members: { '@odata.id': string }[] }>(`/redfish/v1/Systems/${hardwareSystem.uuid}/Storage/1/Volumes`);
  return Promise.all(collection.Members.map((member) => redfish<RedfishVolume>(member['@odata.id'])));
}
/** A volume left on the controller before the host is prepared: preparing must delete it. */
async function leaveStaleVolume(): Promise<void> {
  const storage = `/redfish/v1/Systems/${hardwareSystem.uuid}/Storage/1`;
  const response = await fetch(`${env.sushyUrl}${storage}/Volumes`, {
    method: 'POST', headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ Name: 'stale', RAIDType: 'RAID0', Links: { Drives: [{ '@odata.id': `${storage}/Drives/Disk.2` }] } }),
  });
  if (response.status !== 201) throw new Error(`creating a stale volume: HTTP ${response.status} ${await response.text()}`);
}
const drivesOf = (volume: RedfishVolume) => volume.Links.Drives.map((drive) => drive['@odata.id'].split('/').pop());
const GiB = 1024 ** 3;

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
  await leaveStaleVolume();
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
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${HARDWARE_HOST}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
      {
        apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
        metadata: { name: HARDWARE_HOST, namespace, annotations: { 'inspect.metal3.io': 'disabled' } },
        spec: {
          online: false, bootMACAddress: hardwareSystem.macs[0], automatedCleaningMode: 'disabled',
          bmc: { address: hardwareSystem.redfishAddress, credentialsName: `${HARDWARE_HOST}-bmc` },
          raid: { hardwareRAIDVolumes: [{ level: '1', name: 'root', controller: '1', physicalDisks: ['Disk.0', 'Disk.1'] }] },
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
    expect(deleted.volumes).toEqual(baseline.softwareRaidVolumes);
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

describe('hardware RAID through real Ironic and the emulated BMC', () => {
  it('creates the RAID-1 volume on the two named drives while preparing', async () => {
    const host = (await waitForHost(kubectl, namespace, HARDWARE_HOST, preparedWith, { timeoutMs: minutes(4), failOnError: true })) as RaidHost;
    expect(host.status?.provisioning?.raid).toEqual({ hardwareRAIDVolumes: [{ level: '1', name: 'root', controller: '1', physicalDisks: ['Disk.0', 'Disk.1'] }] });
    const node = await ironicNode(host);
    expect(node.raid_interface).toBe('redfish');
    // The hardware profile's root device hints are set, so the volume is not marked as the root.
    expect(node.target_raid_config.logical_disks).toEqual([
      { size_gb: 'MAX', raid_level: '1', volume_name: 'root', controller: '1', physical_disks: ['Disk.0', 'Disk.1'] },
    ]);
    // On the BMC: the stale volume gone, one RAID-1 volume of the two drives.
    const volumes = await bmcVolumes();
    expect(volumes.map((volume) => [volume.Name, volume.RAIDType, drivesOf(volume)])).toEqual([['root', 'RAID1', ['Disk.0', 'Disk.1']]]);
    // Ironic read the volumes back from the BMC into raid_config.
    expect(node.raid_config.logical_disks).toEqual([
      { id: volumes[0]!.Id, name: 'root', controller: '1', size_gb: Math.trunc(volumes[0]!.CapacityBytes / GiB), raid_level: '1' },
    ]);
  }, minutes(5));

  it('prepares the available host again when its RAID spec changes, replacing the volume on the BMC', async () => {
    const [before] = await bmcVolumes();
    const volumes = [{ level: '0', name: 'scratch', controller: '1', physicalDisks: ['Disk.2'], sizeGibibytes: 100 }];
    await kubectl.ok(['patch', 'bmh', HARDWARE_HOST, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { raid: { hardwareRAIDVolumes: volumes } } })]);
    const host = (await waitForHost(kubectl, namespace, HARDWARE_HOST, preparedWith, { timeoutMs: minutes(4), failOnError: true })) as RaidHost;
    expect(host.status?.provisioning?.raid).toEqual({ hardwareRAIDVolumes: volumes });
    const after = await bmcVolumes();
    expect(after.map((volume) => [volume.Name, volume.RAIDType, drivesOf(volume), volume.CapacityBytes])).toEqual([['scratch', 'RAID0', ['Disk.2'], 100 * GiB]]);
    expect(after[0]!.Id).not.toBe(before!.Id);
    const node = await ironicNode(host);
    expect(node.raid_config.logical_disks).toEqual([{ id: after[0]!.Id, name: 'scratch', controller: '1', size_gb: 100, raid_level: '0' }]);
  }, minutes(5));
});
