import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { tearDownHostTest, getHost, hostEvents, inState, recordsSince, serverRecords, waitForHost, waitForSushyPower } from './hosts.ts';

// Inspection control and externally provisioned hosts on real Ironic and emulated servers 12–14,
// all started together: inspection disabled with hardware from an annotation (12), re-inspection
// of an available host (13), an externally provisioned host (14). `inspectionMode: fast` (Ironic's
// out-of-band redfish inspection) cannot run here: sushy-tools' fake driver has no Processors.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const NOT_INSPECTED = 12;
const REINSPECTED = 13;
const EXTERNAL = 14;

let namespace = '';
let operator: OperatorProcess;

const system = (index: number) => env.systems[index]!;
const imageSpec = { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' };

interface IronicNode {
  uuid: string;
  provision_state: string;
  power_state: string;
  inspect_interface: string;
  instance_uuid: string | null;
  instance_info: Record<string, unknown>;
}

interface HardwareDataObject {
  spec: { hardware?: Record<string, unknown> };
}

/** Hardware a person supplies for a host that is never inspected. */
const suppliedHardware = {
  cpu: { arch: 'x86_64', model: 'Supplied CPU', count: 4 },
  ramMebibytes: 8192,
  nics: [{ name: 'eno1', mac: system(NOT_INSPECTED).macs[0], ip: '192.168.111.32' }],
  storage: [{ name: '/dev/vda', sizeBytes: 53687091200, type: 'HDD' }],
  hostname: 'supplied',
};

function host(name: string, index: number, spec: Record<string, unknown> = {}, annotations: Record<string, string> = {}) {
  return [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials! },
    {
      apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace, annotations },
      spec: {
        online: false,
        bootMACAddress: system(index).macs[0],
        bmc: { address: system(index).redfishAddress, credentialsName: `${name}-bmc` },
        automatedCleaningMode: 'disabled',
        ...spec,
      },
    },
  ];
}

/** What each server went through before this file's hosts existed (the simulator keeps every run's records). */
const baseline = new Map<number, SystemRecords>();

async function allRecords(index: number): Promise<SystemRecords> {
  return serverRecords(env, system(index).uuid);
}

/** What the server went through since this file started. */
async function records(index: number): Promise<SystemRecords> {
  return recordsSince(await allRecords(index), baseline.get(index)!);
}

async function nodeOf(name: string): Promise<IronicNode> {
  const id = (await getHost(kubectl, namespace, name))?.status?.provisioning?.ID;
  return ironic.request<IronicNode>('GET', `/v1/nodes/${id}`);
}

async function annotations(name: string): Promise<Record<string, string>> {
  return (await kubectl.json<{ metadata: { annotations?: Record<string, string> } }>(['get', 'bmh', name, '-n', namespace])).metadata.annotations ?? {};
}

const reasons = async (name: string) => (await hostEvents(kubectl, namespace, name)).map((event) => event.split(':')[0]);

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-day2-inspect');
  for (const index of [NOT_INSPECTED, REINSPECTED, EXTERNAL]) baseline.set(index, await allRecords(index));
  operator = startOperatorProcess({ env, namespace, label: 'day2-inspection' });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      ...host('not-inspected', NOT_INSPECTED, {}, {
        'inspect.metal3.io': 'disabled',
        'inspect.metal3.io/hardwaredetails': JSON.stringify(suppliedHardware),
      }),
      ...host('reinspected', REINSPECTED),
      ...host('external', EXTERNAL, { externallyProvisioned: true, online: true, image: imageSpec }),
    ],
  }));
}, minutes(2));

afterAll(async () => {
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('inspection control against real Ironic', () => {
  it('inspect.metal3.io: disabled skips inspection; inspect.metal3.io/hardwaredetails fills the hardware and is removed', async () => {
    const found = await waitForHost(kubectl, namespace, 'not-inspected', inState('available'), { timeoutMs: minutes(5), failOnError: true });
    expect(found.status?.hardware).toEqual(suppliedHardware);
    expect(await annotations('not-inspected')).not.toHaveProperty(['inspect.metal3.io/hardwaredetails']);
    const hardware = await records(NOT_INSPECTED);
    expect(hardware.inspections).toEqual([]);
    expect(hardware.boots).toEqual([]);
    const node = await nodeOf('not-inspected');
    expect(node.provision_state).toBe('manageable');
    // Ironic never ran an inspection, so it holds no inventory for the node.
    await expect(ironic.request('GET', `/v1/nodes/${node.uuid}/inventory`)).rejects.toThrow(/-> 404/);
    const events = await reasons('not-inspected');
    expect(events).toContain('UpdateHardwareDetails');
    expect(events).not.toContain('InspectionStarted');
  }, minutes(6));

  it('inspect.metal3.io with an empty value inspects an available host again and replaces its HardwareData', async () => {
    await waitForHost(kubectl, namespace, 'reinspected', inState('available'), { timeoutMs: minutes(5), failOnError: true });
    // A stale HardwareData (hand-edited), which the new inspection must replace.
    await kubectl.ok(['patch', 'hardwaredata', 'reinspected', '-n', namespace, '--type=merge', '-p',
      JSON.stringify({ spec: { hardware: { hostname: 'stale', ramMebibytes: 1 } } })]);
    const inspectionsBefore = (await records(REINSPECTED)).inspections.length;
    expect(inspectionsBefore).toBe(1);

    await kubectl.ok(['annotate', 'bmh', 'reinspected', '-n', namespace, 'inspect.metal3.io=']);
    await waitForHost(kubectl, namespace, 'reinspected', inState('inspecting'), { timeoutMs: minutes(1), failOnError: true });
    // The state is saved one pass before the inspection starts, and the annotation is consumed
    // when Ironic accepts the inspect request (as in BMO); wait for that, never past the inspection.
    await waitFor(async () => (!('inspect.metal3.io' in await annotations('reinspected')) ? true : undefined),
      { timeoutMs: minutes(2), what: 'inspect.metal3.io to be consumed' });
    expect((await getHost(kubectl, namespace, 'reinspected'))?.status?.provisioning?.state).toBe('inspecting');
    const again = await waitForHost(kubectl, namespace, 'reinspected', inState('available'), { timeoutMs: minutes(5), failOnError: true });
    const hardware = await records(REINSPECTED);
    expect(hardware.inspections).toHaveLength(inspectionsBefore + 1);
    expect(hardware.inspections.at(-1)).toMatchObject({ nodeUuid: again.status?.provisioning?.ID, accepted: true });
    const after = await kubectl.json<HardwareDataObject>(['get', 'hardwaredata', 'reinspected', '-n', namespace]);
    expect(after.spec.hardware).toEqual(again.status?.hardware);
    expect(after.spec.hardware).not.toMatchObject({ hostname: 'stale' });
    expect(after.spec.hardware).not.toMatchObject({ ramMebibytes: 1 });
  }, minutes(8));
});

describe('externally provisioned hosts against real Ironic', () => {
  it('is adopted (Ironic active, no inspection, no image write) and power-managed; clearing it makes it provisioned without imaging', async () => {
    const uuid = system(EXTERNAL).uuid;
    const found = await waitForHost(kubectl, namespace, 'external', inState('externally provisioned'), { timeoutMs: minutes(4), failOnError: true });
    const node = await waitFor(async () => {
      const current = await nodeOf('external');
      return current.provision_state === 'active' ? current : undefined;
    }, { timeoutMs: minutes(2), what: 'the node to be adopted' });
    expect(node.instance_uuid).toBe(found.metadata.uid);
    await waitForSushyPower(env, uuid, 'On', minutes(2));
    await waitForHost(kubectl, namespace, 'external', (candidate) => candidate.status?.poweredOn === true, { timeoutMs: minutes(2), failOnError: true });

    await kubectl.ok(['patch', 'bmh', 'external', '-n', namespace, '--type=merge', '-p', '{"spec":{"online":false}}']);
    await waitForSushyPower(env, uuid, 'Off', minutes(2));
    await waitForHost(kubectl, namespace, 'external', (candidate) => candidate.status?.poweredOn === false, { timeoutMs: minutes(2), failOnError: true });
    expect((await nodeOf('external')).power_state).toBe('power off');

    // bmo.md 2.3: externally provisioned -> provisioned, the spec image recorded as deployed.
    await kubectl.ok(['patch', 'bmh', 'external', '-n', namespace, '--type=merge', '-p', '{"spec":{"externallyProvisioned":false}}']);
    const provisioned = await waitForHost(kubectl, namespace, 'external', inState('provisioned'), { timeoutMs: minutes(2), failOnError: true });
    expect(provisioned.status?.provisioning?.image?.url).toBe(image.url);
    expect((await nodeOf('external')).provision_state).toBe('active');
    const hardware = await records(EXTERNAL);
    expect(hardware.inspections).toEqual([]);
    expect(hardware.imageWrites).toEqual([]);
    expect(hardware.diskWipes).toEqual([]);
    const events = await reasons('external');
    expect(events).not.toContain('InspectionStarted');
    expect(events).not.toContain('ProvisioningStarted');
  }, minutes(8));
});
