import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { getHost, hostEvents, inState, recordsSince, serverRecords, tearDownHostTest, waitForHost } from './hosts.ts';

// `inspectionMode: fast` on real Ironic and emulated server 36: Ironic's out-of-band `redfish`
// inspection reads the hardware from the emulated BMC (sushy-tools, whose fake systems serve
// Processors, MemorySummary and Storage drives through hack/stack/sushy/fake_hardware.py); the
// server itself is never powered on, so the agent simulator never boots a ramdisk.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const minutes = (n: number) => n * 60_000;
const FAST = 36;
const NAME = 'fast';

let namespace = '';
let operator: OperatorProcess;
let baseline: SystemRecords;

const system = env.systems[FAST]!;

/** A Redfish resource of the emulated server, read as Ironic reads it (with the BMC's credentials). */
async function redfish<T>(path: string): Promise<T> {
  const credentials = env.bmcCredentials;
  const headers: Record<string, string> = credentials
    ? { authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` }
    : {};
  const response = await fetch(`${env.sushyUrl}/redfish/v1/Systems/${system.uuid}${path}`, { headers });
  if (!response.ok) throw new Error(`sushy GET Systems/${system.uuid}${path} -> ${response.status}`);
  return (await response.json()) as T;
}

interface Members { Members: { '@odata.id': string }[] }

/** What the emulated BMC says the server has: logical CPUs, model, memory, disks and NICs. */
async function bmcHardware() {
  const summary = await redfish<{ MemorySummary: { TotalSystemMemoryGiB: number } }>('');
  const processorIds = (await redfish<Members>('/Processors')).Members.map((member) => member['@odata.id'].split('/').at(-1)!);
  const processors = await Promise.all(processorIds.map((id) => redfish<{ Model: string; TotalThreads: string }>(`/Processors/${id}`)));
  const storageIds = (await redfish<Members>('/Storage')).Members.map((member) => member['@odata.id'].split('/').at(-1)!);
  const storages = await Promise.all(storageIds.map((id) => redfish<Members & { Drives: { '@odata.id': string }[] }>(`/Storage/${id}`)));
  const drives = await Promise.all(storages.flatMap((storage) => storage.Drives.map((drive) =>
    redfish<{ Name: string; CapacityBytes: number; MediaType: string; Model: string; SerialNumber: string }>(drive['@odata.id'].split(system.uuid)[1]!))));
  const nicIds = (await redfish<Members>('/EthernetInterfaces')).Members.map((member) => member['@odata.id'].split('/').at(-1)!);
  const nics = await Promise.all(nicIds.map((id) => redfish<{ MACAddress: string }>(`/EthernetInterfaces/${id}`)));
  return {
    cpuCount: processors.reduce((sum, processor) => sum + Number(processor.TotalThreads), 0),
    cpuModel: processors[0]!.Model,
    ramMebibytes: summary.MemorySummary.TotalSystemMemoryGiB * 1024,
    disks: drives.map((drive) => ({
      name: drive.Name, sizeBytes: drive.CapacityBytes, rotational: drive.MediaType === 'HDD', model: drive.Model, serialNumber: drive.SerialNumber,
    })),
    macs: nics.map((nic) => nic.MACAddress.toLowerCase()),
  };
}

interface IronicNode {
  uuid: string;
  provision_state: string;
  power_state: string;
  inspect_interface: string;
  properties: Record<string, unknown>;
}

interface HardwareDetails {
  cpu: { arch: string; model: string; count: number };
  ramMebibytes: number;
  nics: { name: string; mac: string }[];
  storage: { name: string; sizeBytes: number; rotational?: boolean; model: string; serialNumber: string }[];
}

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-inspection-mode');
  baseline = await serverRecords(env, system.uuid);
  operator = startOperatorProcess({ env, namespace, label: 'day2-inspection-mode' });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${NAME}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
      {
        apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: NAME, namespace },
        spec: {
          online: false,
          inspectionMode: 'fast',
          bootMACAddress: system.macs[0],
          bmc: { address: system.redfishAddress, credentialsName: `${NAME}-bmc` },
          automatedCleaningMode: 'disabled',
        },
      },
    ],
  }));
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('inspectionMode: fast against real Ironic', () => {
  it('inspects out of band through the BMC (no ramdisk boot), fills status.hardware from what the BMC serves, and becomes available', async () => {
    const host = await waitForHost(kubectl, namespace, NAME, inState('available'), { timeoutMs: minutes(5), failOnError: true });

    // Ironic ran the BMC's out-of-band inspection and holds an inventory from it.
    const node = await ironic.request<IronicNode>('GET', `/v1/nodes/${host.status?.provisioning?.ID}`);
    expect(node.inspect_interface).toBe('redfish');
    expect(node.provision_state).toBe('manageable');
    expect(node.properties).toMatchObject({ cpu_arch: 'x86_64' });
    const inventory = await ironic.request<{ inventory: { cpu: { count: number } } }>('GET', `/v1/nodes/${node.uuid}/inventory`);

    // The server never ran: no power on, no ramdisk boot, nothing reported by an agent.
    const hardwareRecords = recordsSince(await serverRecords(env, system.uuid), baseline);
    expect(hardwareRecords.boots).toEqual([]);
    expect(hardwareRecords.inspections).toEqual([]);
    expect(node.power_state).toBe('power off');

    // status.hardware is what the emulated BMC serves (the NICs named by their Redfish ids, as
    // an out-of-band inspection names them, not by an OS's interface names).
    const bmc = await bmcHardware();
    const hardware = (await getHost(kubectl, namespace, NAME))?.status?.hardware as HardwareDetails;
    expect(inventory.inventory.cpu.count).toBe(bmc.cpuCount);
    expect(hardware.cpu).toMatchObject({ arch: 'x86_64', model: bmc.cpuModel, count: bmc.cpuCount });
    expect(hardware.ramMebibytes).toBe(bmc.ramMebibytes);
    // status.hardware leaves `rotational: false` out, as BMO's omitempty does.
    expect(hardware.storage.map(({ name, sizeBytes, rotational, model, serialNumber }) => ({ name, sizeBytes, rotational: rotational ?? false, model, serialNumber })))
      .toEqual(bmc.disks);
    // Not all alike: the BMC's SSDs and its HDD come through as such.
    expect(new Set(bmc.disks.map((disk) => disk.rotational))).toEqual(new Set([true, false]));
    expect(hardware.nics.map((nic) => nic.mac).sort()).toEqual([...bmc.macs].sort());
    expect(bmc.macs).toContain(system.macs[0]!.toLowerCase());

    const hardwareData = await kubectl.json<{ spec: { hardware?: unknown } }>(['get', 'hardwaredata', NAME, '-n', namespace]);
    expect(hardwareData.spec.hardware).toEqual(hardware);
    const events = (await hostEvents(kubectl, namespace, NAME)).map((event) => event.split(':')[0]);
    expect(events).toEqual(expect.arrayContaining(['InspectionStarted', 'InspectionComplete']));
  }, minutes(6));
});
