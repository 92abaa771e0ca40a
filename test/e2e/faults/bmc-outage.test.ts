import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { startIsolatedBmc, stopIsolatedBmc } from '../../support/stack-control.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  getHost, hostEventCounts, hostEvents, inState, recordsSince, serverRecords, sushyPowerState, tearDownHostTest, waitForHost, type Host,
} from '../baremetalhost/hosts.ts';

// The BMC stops answering: the stack's isolated sushy-tools, the Redfish BMC of servers 68 and 69
// only (test-stack.ts ISOLATED_BMC_SERVERS), is stopped while host `provisioning` (server 68)
// deploys and host `spare` (69) is asked to inspect, again while both sit idle (provisioned and
// available), and again while both hosts are deleted. No other server's BMC goes away, so this
// file runs side by side with the others.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const SERVERS = { provisioning: env.systems[68]!, spare: env.systems[69]! };
type HostName = keyof typeof SERVERS;
const HOST_NAMES = Object.keys(SERVERS) as HostName[];

let namespace = '';
let operator: OperatorProcess | undefined;
let bmcDown = false;
const baselines = new Map<HostName, SystemRecords>();

async function withBmcDown<T>(during: () => Promise<T>): Promise<T> {
  await stopIsolatedBmc();
  bmcDown = true;
  try {
    return await during();
  } finally {
    await startIsolatedBmc();
    bmcDown = false;
  }
}

function hostManifests(name: HostName) {
  const server = SERVERS[name];
  return [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace }, stringData: env.bmcCredentials! },
    { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
      metadata: { name, namespace, annotations: { 'inspect.metal3.io': 'disabled' } },
      spec: { online: name === 'provisioning', bootMACAddress: server.macs[0], automatedCleaningMode: 'disabled',
        bmc: { address: server.redfishAddress, credentialsName: `${name}-bmc` } } },
  ];
}

const manageable = (host: Host) => host.status?.conditions?.find((condition) => condition.type === 'Manageable');
const healthy = (state: string) => (host: Host) => inState(state)(host) && !host.status?.errorType && host.status?.operationalStatus === 'OK'
  && manageable(host)?.status === 'True';
const nodeOf = async (name: HostName) => (await getHost(kubectl, namespace, name))?.status?.provisioning?.ID;

beforeAll(async () => {
  namespace = await createUniqueNamespace(kubectl, 'e2e-bmc-outage');
  for (const name of HOST_NAMES) baselines.set(name, await serverRecords(env, SERVERS[name].uuid));
  // A short deletion deadline: with the BMC gone, deletion stops waiting for power off and deprovisioning after a minute.
  operator = startOperatorProcess({ env, namespace, label: 'bmc-outage', extraEnv: { DELETION_TIMEOUT: '60s' } });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: HOST_NAMES.flatMap(hostManifests) }));
}, minutes(2));

afterAll(async () => {
  // The BMC of 68-69 must be back for whoever uses them next.
  if (bmcDown) await startIsolatedBmc();
  await tearDownHostTest({ env, kubectl, namespace, operator });
  kubectl.dispose();
}, minutes(6));

describe('a BMC that stops answering', () => {
  it('mid-provisioning and mid-inspection: each host says its BMC is not answering, then provisions or is inspected once the BMC is back', async () => {
    await Promise.all(HOST_NAMES.map((name) =>
      waitForHost(kubectl, namespace, name, inState('available'), { timeoutMs: minutes(4), failOnError: true })));
    const nodeUuid = (await nodeOf('provisioning'))!;
    await kubectl.ok(['patch', 'bmh', 'provisioning', '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: {
      image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' } } })]);
    // Ironic has started the deployment: what it does next goes through the BMC.
    await waitFor(async () => ((await ironic.node(nodeUuid)).provision_state === 'deploying' ? true : undefined),
      { timeoutMs: minutes(3), intervalMs: 250, what: 'Ironic to start deploying' });

    const spareNode = (await nodeOf('spare'))!;
    const bmc = new URL(SERVERS.provisioning.bmcUrl).host;
    const notAnswering = (candidate: Host) => manageable(candidate)?.reason === 'PowerFailure';
    const [failing, failingInspection] = await withBmcDown(async () => {
      // The spare host is asked to inspect while its BMC is gone: Ironic cannot power it on.
      await kubectl.ok(['annotate', '--overwrite', 'bmh', 'spare', '-n', namespace, 'inspect.metal3.io=']);
      return Promise.all([
        (async () => {
          const host = await waitForHost(kubectl, namespace, 'provisioning', notAnswering, { timeoutMs: minutes(4) });
          return { host, events: await hostEvents(kubectl, namespace, 'provisioning'), node: await ironic.node(nodeUuid) };
        })(),
        (async () => {
          const host = await waitForHost(kubectl, namespace, 'spare', (candidate) => inState('inspecting')(candidate) && notAnswering(candidate),
            { timeoutMs: minutes(4) });
          return { host, events: await hostEvents(kubectl, namespace, 'spare'), node: await ironic.node(spareNode) };
        })(),
      ]);
    });
    // What a user reads while the BMC is down: the BMC (its address) does not answer, in the
    // status (Manageable False, PowerFailure) and a Warning event; Ironic said the same.
    expect(failing.node.last_error ?? failing.node.maintenance_reason).toContain(bmc);
    expect(manageable(failing.host)).toMatchObject({ status: 'False', reason: 'PowerFailure' });
    expect(manageable(failing.host)?.message).toMatch(/^the BMC is not answering: .*127\.0\.0\.1:\d+/);
    expect(manageable(failing.host)?.message).toContain(bmc);
    expect(failing.events.some((event) => event.startsWith('BMCNotAnswering: the BMC is not answering') && event.includes(bmc))).toBe(true);
    expect(JSON.stringify(failing)).not.toContain(env.bmcCredentials!.password);
    // The inspection the BMC outage interrupted says the same, and Ironic failed it for that reason.
    expect(failingInspection.node.last_error ?? failingInspection.node.maintenance_reason).toContain(bmc);
    expect(manageable(failingInspection.host)?.message).toMatch(/^the BMC is not answering: /);
    expect(failingInspection.events.some((event) => event.startsWith('BMCNotAnswering: the BMC is not answering') && event.includes(bmc)))
      .toBe(true);
    expect(JSON.stringify(failingInspection)).not.toContain(env.bmcCredentials!.password);

    // Back: the host provisions, and the status and events say the BMC answers again.
    const provisioned = await waitForHost(kubectl, namespace, 'provisioning', healthy('provisioned'), { timeoutMs: minutes(8) });
    expect(provisioned.status?.provisioning?.ID).toBe(nodeUuid);
    const node = await ironic.node(nodeUuid);
    expect([node.provision_state, node.power_state, node.maintenance]).toEqual(['active', 'power on', false]);
    expect(await sushyPowerState({ ...env, sushyUrl: SERVERS.provisioning.bmcUrl }, SERVERS.provisioning.uuid)).toBe('On');
    const server = recordsSince(await serverRecords(env, SERVERS.provisioning.uuid), baselines.get('provisioning')!);
    expect(server.imageWrites.at(-1)).toEqual(expect.objectContaining({ nodeUuid, outcome: 'written' }));
    expect(await hostEvents(kubectl, namespace, 'provisioning')).toContain('BMCAnswering: the BMC is answering again');
    // Back: the spare host is inspected once (the agent simulator's record, Ironic's inventory)
    // and available with no error, its node out of maintenance and without an error.
    const inspected = await waitForHost(kubectl, namespace, 'spare', healthy('available'), { timeoutMs: minutes(4) });
    expect(inspected.status?.provisioning?.ID).toBe(spareNode);
    const spare = recordsSince(await serverRecords(env, SERVERS.spare.uuid), baselines.get('spare')!);
    expect(spare.inspections).toEqual([expect.objectContaining({ nodeUuid: spareNode, accepted: true })]);
    const spareIronic = await ironic.node(spareNode);
    expect([spareIronic.maintenance, spareIronic.last_error ?? null, spareIronic.fault ?? null]).toEqual([false, null, null]);
    expect(spareIronic.inspection_finished_at).toEqual(expect.any(String));
    expect(await hostEvents(kubectl, namespace, 'spare')).toContain('BMCAnswering: the BMC is answering again');
  }, minutes(14));

  it('idle: Ironic\'s power sync puts both nodes in maintenance for a power failure, both hosts say so, and all recover', async () => {
    const expected = { provisioning: { state: 'provisioned', power: 'On', poweredOn: true }, spare: { state: 'available', power: 'Off', poweredOn: false } } as const;
    const nodes = new Map(await Promise.all(HOST_NAMES.map(async (name) => {
      const host = await waitForHost(kubectl, namespace, name, healthy(expected[name].state), { timeoutMs: minutes(1) });
      return [name, host.status!.provisioning!.ID!] as const;
    })));
    const answered = async (name: HostName) => (await hostEventCounts(kubectl, namespace, name)).get('BMCAnswering: the BMC is answering again') ?? 0;
    const answeredBefore = new Map(await Promise.all(HOST_NAMES.map(async (name) => [name, await answered(name)] as const)));
    const recordsBefore = new Map(await Promise.all(HOST_NAMES.map(async (name) => [name, await serverRecords(env, SERVERS[name].uuid)] as const)));
    const failing = await withBmcDown(() => Promise.all(HOST_NAMES.map(async (name) => {
      // Nothing is asked of either node: only Ironic's periodic power sync reaches for the BMC.
      const node = await waitFor(async () => {
        const current = await ironic.node(nodes.get(name)!);
        return current.fault === 'power failure' ? current : undefined;
      }, { timeoutMs: minutes(5), intervalMs: 1_000, what: `Ironic to set the power failure fault on ${name}'s node` });
      const host = await waitForHost(kubectl, namespace, name, (candidate) => manageable(candidate)?.reason === 'PowerFailure', { timeoutMs: minutes(2) });
      return { name, node, host };
    })));
    const bmc = new URL(SERVERS.provisioning.bmcUrl).host;
    for (const { name, node, host } of failing) {
      expect(node.maintenance).toBe(true);
      expect(node.maintenance_reason).toContain(bmc);
      expect(manageable(host)).toMatchObject({ status: 'False', reason: 'PowerFailure', message: `the BMC is not answering: ${node.maintenance_reason}` });
      expect(host.status?.provisioning?.state).toBe(expected[name].state);
    }
    expect(JSON.stringify(failing)).not.toContain(env.bmcCredentials!.password);

    // Back: Ironic lifts the faults (power failure recovery), the hosts say the BMC answers, and
    // each server kept its power throughout: no power change, no inspection, no image written.
    for (const name of HOST_NAMES) {
      const recovered = await waitForHost(kubectl, namespace, name, healthy(expected[name].state), { timeoutMs: minutes(3) });
      expect(recovered.status?.poweredOn).toBe(expected[name].poweredOn);
      const node = await ironic.node(nodes.get(name)!);
      expect([node.power_state, node.maintenance, node.fault ?? null]).toEqual([expected[name].poweredOn ? 'power on' : 'power off', false, null]);
      expect(await sushyPowerState({ ...env, sushyUrl: SERVERS[name].bmcUrl }, SERVERS[name].uuid)).toBe(expected[name].power);
      const server = recordsSince(await serverRecords(env, SERVERS[name].uuid), recordsBefore.get(name)!);
      expect([server.boots, server.imageWrites, server.inspections]).toEqual([[], [], []]);
      expect(await answered(name)).toBeGreaterThan(answeredBefore.get(name)!);
    }
  }, minutes(12));

  it('deletes both hosts while the BMC is down again, and Ironic keeps no node of theirs', async () => {
    const nodes = await Promise.all(HOST_NAMES.map(async (name) => (await nodeOf(name))!));
    for (const uuid of nodes) expect((await ironic.node(uuid)).uuid).toBe(uuid);
    const events = await withBmcDown(async () => {
      await kubectl.ok(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
      await waitFor(async () => ((await kubectl.ok(['get', 'bmh', '-n', namespace, '-o', 'name'])).trim() === '' ? true : undefined),
        { timeoutMs: minutes(5), intervalMs: 1_000, what: 'both hosts to be deleted' });
      return kubectl.ok(['get', 'events', '-n', namespace, '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
    });
    for (const uuid of nodes) {
      const gone = await fetch(`${env.ironicUrl}/v1/nodes/${uuid}`, { headers: { 'x-openstack-ironic-api-version': '1.95' } });
      expect(gone.status).toBe(404);
    }
    // Past the deadline the clean-up Ironic could not do without the BMC was skipped, but the
    // node's removal was forced rather than given up on: no host was released with its node left behind.
    expect(events).toMatch(/CleanupSkipped: giving up on host clean up \(deletion has been running for more than 1m\)/);
    expect(events).not.toContain('giving up on removing the host from the provisioner');
  }, minutes(7));
});
