import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { freePort } from '../../../hack/stack/ports.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  tearDownHostTest, getHost, hostEvents, inState, metricValue, sushyPowerState, waitForHost, waitForSushyPower,
} from './hosts.ts';

// Day-2 host management on real Ironic and emulated hardware: pause, detach / re-attach and
// deletion while detached on emulated server 31, and a host restored from its status annotation
// (as after `clusterctl move`) on server 32, started side by side.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const MANAGED = 31;
const RESTORED = 32;

let namespace = '';
let operator: OperatorProcess;
let metricsUrl = '';

const system = (index: number) => env.systems[index]!;
const imageSpec = { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' };

interface IronicNode {
  uuid: string;
  name: string;
  provision_state: string;
  power_state: string;
  instance_uuid: string | null;
  instance_info: Record<string, unknown>;
  maintenance: boolean;
}

const bmcSecret = (name: string) => ({
  apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, type: 'Opaque', stringData: env.bmcCredentials!,
});

function hostObject(name: string, index: number, annotations: Record<string, string> = {}) {
  return {
    apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name, namespace, annotations },
    spec: {
      online: true,
      bootMACAddress: system(index).macs[0],
      bmc: { address: system(index).redfishAddress, credentialsName: `${name}-bmc` },
      automatedCleaningMode: 'disabled',
      image: imageSpec,
    },
  };
}

/** What server 32 "was" before the move: inspected hardware, as a HardwareData object keeps it. */
const restoredHardware = {
  cpu: { arch: 'x86_64', model: 'Emulated CPU', clockMegahertz: 2400, flags: ['vmx'], count: 8 },
  ramMebibytes: 16384,
  nics: [{ name: 'enp1s0', mac: system(RESTORED).macs[0], ip: '192.168.111.35', speedGbps: 10, pxe: true }],
  storage: [{ name: '/dev/sda', type: 'SSD', sizeBytes: 107374182400, serialNumber: 'restored-disk-0' }],
  systemVendor: { manufacturer: 'Emulated', productName: 'Server' },
  firmware: { bios: { vendor: 'Emulated', version: '1.0' } },
  hostname: 'restored',
};

/** The status saved by `clusterctl move` (BMO's status annotation): provisioned, on a node of another Ironic. */
const savedStatus = {
  operationalStatus: 'OK',
  lastUpdated: '2026-01-01T00:00:00Z',
  hardwareProfile: 'unknown',
  provisioning: {
    state: 'provisioned',
    ID: randomUUID(),
    image: imageSpec,
    bootMode: 'UEFI',
    rootDeviceHints: { deviceName: '/dev/sda' },
  },
  poweredOn: true,
  errorMessage: '',
  errorCount: 0,
  provisioningFailCount: 0,
};

async function records(index: number): Promise<SystemRecords> {
  return (await (await fetch(`${env.agentSimulatorUrl}/records/${system(index).uuid}`)).json()) as SystemRecords;
}

/** What server 32 went through before its host existed (the simulator keeps every run's records). */
let restoredBaseline: SystemRecords;

async function reconciles(name: string): Promise<number> {
  return metricValue(await (await fetch(metricsUrl)).text(), 'metal3_reconcile_total', { namespace, host: name });
}

async function nodeNamed(name: string): Promise<IronicNode | undefined> {
  const { nodes } = await ironic.request<{ nodes: IronicNode[] }>('GET', '/v1/nodes?fields=uuid,name');
  const found = nodes.find((node) => node.name === `${namespace}~${name}`);
  return found ? ironic.request<IronicNode>('GET', `/v1/nodes/${found.uuid}`) : undefined;
}

async function ironicStatus(uuid: string): Promise<number> {
  return (await fetch(`${env.ironicUrl}/v1/nodes/${uuid}`, { headers: { 'x-openstack-ironic-api-version': '1.95' } })).status;
}

const pausedLogLines = (name: string) => readFileSync(operator.process.logPath, 'utf8').split('\n')
  .filter((line) => line.includes('host is paused') && line.includes(name)).length;

beforeAll(async () => {
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-day2-detach');
  restoredBaseline = await records(RESTORED);
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  operator = startOperatorProcess({ env, namespace, label: 'day2-detach', extraEnv: { METRICS_BIND_ADDRESS: `127.0.0.1:${port}` } });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      bmcSecret('managed'),
      hostObject('managed', MANAGED),
      bmcSecret('restored'),
      // HardwareData first, as clusterctl move creates it with its host.
      { apiVersion: 'metal3.io/v1alpha1', kind: 'HardwareData', metadata: { name: 'restored', namespace }, spec: { hardware: restoredHardware } },
      hostObject('restored', RESTORED, { 'baremetalhost.metal3.io/status': JSON.stringify(savedStatus) }),
    ],
  }));
  await waitForHost(kubectl, namespace, 'managed', inState('provisioned'), { timeoutMs: minutes(9), failOnError: true });
}, minutes(10));

afterAll(async () => {
  if (namespace) await kubectl.run(['annotate', 'bmh', '--all', '-n', namespace, 'baremetalhost.metal3.io/paused-']);
  await tearDownHostTest({ env, kubectl, namespace, operator });
}, minutes(5));

describe('day-2 host management against real Ironic', () => {
  it('a host restored from its status annotation and HardwareData is adopted as provisioned, never inspected or imaged', async () => {
    const host = await waitForHost(kubectl, namespace, 'restored',
      (candidate) => inState('provisioned')(candidate) && candidate.status?.poweredOn === true && candidate.status.provisioning?.ID !== savedStatus.provisioning.ID,
      { timeoutMs: minutes(4), failOnError: true });
    expect(host.status?.hardware).toEqual(restoredHardware);
    expect(host.status?.provisioning?.image?.url).toBe(image.url);
    const node = await waitFor(async () => {
      const found = await nodeNamed('restored');
      return found?.provision_state === 'active' && found.power_state === 'power on' ? found : undefined;
    }, { timeoutMs: minutes(2), what: 'the restored node to be active and on' });
    expect(node.uuid).toBe(host.status?.provisioning?.ID);
    // Adopted carrying what a deployed node carries (instance_uuid and the image), not an empty shell.
    expect(node.instance_uuid).toBe(host.metadata.uid);
    expect(node.instance_info).toMatchObject({ image_source: image.url });
    const hardware = await records(RESTORED);
    expect(hardware.inspections).toEqual(restoredBaseline.inspections);
    expect(hardware.imageWrites).toEqual(restoredBaseline.imageWrites);
    expect(hardware.diskWipes).toEqual(restoredBaseline.diskWipes);
    await waitForSushyPower(env, system(RESTORED).uuid, 'On', minutes(1));
    const annotations = (await kubectl.json<{ metadata: { annotations?: Record<string, string> } }>(['get', 'bmh', 'restored', '-n', namespace]))
      .metadata.annotations ?? {};
    expect(annotations).not.toHaveProperty(['baremetalhost.metal3.io/status']);
    const reasons = (await hostEvents(kubectl, namespace, 'restored')).map((event) => event.split(':')[0]);
    expect(reasons).not.toContain('InspectionStarted');
    expect(reasons).not.toContain('ProvisioningStarted');
  }, minutes(7));

  it('while paused nothing changes in Ironic, on the server or in status, even for a spec change; unpausing resumes', async () => {
    const uuid = system(MANAGED).uuid;
    await waitForSushyPower(env, uuid, 'On', minutes(1));
    const before = (await getHost(kubectl, namespace, 'managed'))!;
    const nodeBefore = (await nodeNamed('managed'))!;
    expect(nodeBefore.power_state).toBe('power on');

    const reconcilesBefore = await reconciles('managed');
    const pausedBefore = pausedLogLines('managed');
    await kubectl.ok(['patch', 'bmh', 'managed', '-n', namespace, '--type=merge', '-p', JSON.stringify({
      metadata: { annotations: { 'baremetalhost.metal3.io/paused': 'day2-test' } },
      spec: { online: false },
    })]);
    // The operator saw the paused host with its new spec, and did nothing: a reconcile counted and logged as paused.
    await waitFor(async () => ((await reconciles('managed')) > reconcilesBefore && pausedLogLines('managed') > pausedBefore ? true : undefined),
      { timeoutMs: minutes(1), what: 'a reconcile of the paused host' });
    // A second change while paused, to be sure the first one was not still in flight.
    const pausedOnce = pausedLogLines('managed');
    await kubectl.ok(['annotate', 'bmh', 'managed', '-n', namespace, 'day2.metal3-ts.test/probe=paused']);
    await waitFor(async () => (pausedLogLines('managed') > pausedOnce ? true : undefined), { timeoutMs: minutes(1), what: 'a second paused reconcile' });

    const during = (await getHost(kubectl, namespace, 'managed'))!;
    expect(during.status).toEqual(before.status);
    const nodeDuring = (await nodeNamed('managed'))!;
    expect(nodeDuring.power_state).toBe('power on');
    expect(nodeDuring.provision_state).toBe('active');
    expect(await sushyPowerState(env, uuid)).toBe('On');

    await kubectl.ok(['annotate', 'bmh', 'managed', '-n', namespace, 'baremetalhost.metal3.io/paused-']);
    await waitForSushyPower(env, uuid, 'Off', minutes(2));
    await waitForHost(kubectl, namespace, 'managed', (host) => host.status?.poweredOn === false, { timeoutMs: minutes(2), failOnError: true });
    expect((await ironic.node(nodeBefore.uuid)).power_state).toBe('power off');
    await kubectl.ok(['patch', 'bmh', 'managed', '-n', namespace, '--type=merge', '-p', '{"spec":{"online":true}}']);
    await waitForSushyPower(env, uuid, 'On', minutes(2));
    await waitForHost(kubectl, namespace, 'managed', (host) => host.status?.poweredOn === true, { timeoutMs: minutes(2), failOnError: true });
  }, minutes(7));

  it('detached removes the Ironic node without deprovisioning; re-attaching adopts it again with no new image write', async () => {
    const uuid = system(MANAGED).uuid;
    const host = (await getHost(kubectl, namespace, 'managed'))!;
    const oldNode = host.status!.provisioning!.ID!;
    const hardwareBefore = await records(MANAGED);

    await kubectl.ok(['annotate', 'bmh', 'managed', '-n', namespace, 'baremetalhost.metal3.io/detached=']);
    const detached = await waitForHost(kubectl, namespace, 'managed', (candidate) => candidate.status?.operationalStatus === 'detached',
      { timeoutMs: minutes(2), failOnError: true });
    expect(detached.status?.provisioning?.state).toBe('provisioned');
    expect(await ironicStatus(oldNode)).toBe(404);
    expect(await nodeNamed('managed')).toBeUndefined();
    // Nothing happened to the server: still on, no cleaning, no new image.
    expect(await sushyPowerState(env, uuid)).toBe('On');
    const afterDetach = await records(MANAGED);
    expect(afterDetach.diskWipes).toEqual(hardwareBefore.diskWipes);
    expect(afterDetach.imageWrites).toEqual(hardwareBefore.imageWrites);

    await kubectl.ok(['annotate', 'bmh', 'managed', '-n', namespace, 'baremetalhost.metal3.io/detached-']);
    const back = await waitForHost(kubectl, namespace, 'managed',
      (candidate) => candidate.status?.operationalStatus === 'OK' && Boolean(candidate.status.provisioning?.ID) && candidate.status.provisioning?.ID !== oldNode,
      { timeoutMs: minutes(3), failOnError: true });
    expect(back.status?.provisioning?.state).toBe('provisioned');
    const node = await waitFor(async () => {
      const found = await nodeNamed('managed');
      return found?.provision_state === 'active' ? found : undefined;
    }, { timeoutMs: minutes(2), what: 'the re-registered node to be adopted' });
    expect(node.uuid).toBe(back.status?.provisioning?.ID);
    expect(node.power_state).toBe('power on');
    expect(node.maintenance).toBe(false);
    // The new node carries what the old one did.
    expect(node.instance_uuid).toBe(host.metadata.uid);
    expect(node.instance_info).toMatchObject({ image_source: image.url });
    const afterAttach = await records(MANAGED);
    expect(afterAttach.imageWrites).toEqual(hardwareBefore.imageWrites);
    expect(afterAttach.diskWipes).toEqual(hardwareBefore.diskWipes);
    const states = (await hostEvents(kubectl, namespace, 'managed')).map((event) => event.split(':')[0]);
    expect(states).not.toContain('DeprovisioningStarted');
  }, minutes(6));

  it('deleting a detached host skips deprovisioning and powering off', async () => {
    const uuid = system(MANAGED).uuid;
    const nodeId = (await getHost(kubectl, namespace, 'managed'))!.status!.provisioning!.ID!;
    await kubectl.ok(['annotate', 'bmh', 'managed', '-n', namespace, 'baremetalhost.metal3.io/detached=']);
    await waitForHost(kubectl, namespace, 'managed', (candidate) => candidate.status?.operationalStatus === 'detached',
      { timeoutMs: minutes(2), failOnError: true });
    expect(await nodeNamed('managed')).toBeUndefined();
    const hardwareBefore = await records(MANAGED);

    await kubectl.ok(['delete', 'bmh', 'managed', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await getHost(kubectl, namespace, 'managed')) ? undefined : true), { timeoutMs: minutes(2), what: 'the host to be deleted' });
    // No node was registered again to deprovision it, the disks were not touched and the server kept running.
    expect(await nodeNamed('managed')).toBeUndefined();
    expect(await ironicStatus(nodeId)).toBe(404);
    const hardwareAfter = await records(MANAGED);
    expect(hardwareAfter.diskWipes).toEqual(hardwareBefore.diskWipes);
    expect(hardwareAfter.imageWrites).toEqual(hardwareBefore.imageWrites);
    expect(await sushyPowerState(env, uuid)).toBe('On');
  }, minutes(4));
});
