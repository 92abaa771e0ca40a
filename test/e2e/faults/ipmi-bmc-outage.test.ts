import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { startIsolatedIpmiBmc, stopIsolatedIpmiBmc } from '../../support/stack-control.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { ISOLATED_IPMI_BMC_SERVER } from '../../support/test-stack.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  getHost, hostEventCounts, hostEvents, inState, recordsSince, serverRecords, sushyPowerState, tearDownHostTest, waitForHost, type Host,
} from '../baremetalhost/hosts.ts';

// An IPMI BMC that stops answering: the stack's isolated IPMI BMC, in front of server 67's
// Redfish system only (test-stack.ts ISOLATED_IPMI_BMC_SERVER), is stopped while Ironic deploys
// the ipmi:// host on that server, while the host sits idle, while it is asked to power off, and
// while it is deleted. The server keeps running behind it (its power lives in sushy-tools, the
// agent simulator plays it), as behind a real BMC that drops off the network.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const minutes = (n: number) => n * 60_000;
const SERVER = env.systems[ISOLATED_IPMI_BMC_SERVER]!;
const ipmiBmc = env.isolatedIpmiBmc!;
const HOST = 'ipmi';

let namespace = '';
let operator: OperatorProcess | undefined;
let bmcDown = false;
let baseline: SystemRecords;

async function withIpmiBmcDown<T>(during: () => Promise<T>): Promise<T> {
  await stopIsolatedIpmiBmc();
  bmcDown = true;
  try {
    return await during();
  } finally {
    await startIsolatedIpmiBmc();
    bmcDown = false;
  }
}

const manageable = (host: Host) => host.status?.conditions?.find((condition) => condition.type === 'Manageable');
const healthy = (state: string) => (host: Host) => inState(state)(host) && !host.status?.errorType && host.status?.operationalStatus === 'OK'
  && manageable(host)?.status === 'True';

beforeAll(async () => {
  if (!ipmiBmc) throw new Error('the test stack has no isolated IPMI BMC (test-stack.ts ISOLATED_IPMI_BMC_SERVER)');
  namespace = await createUniqueNamespace(kubectl, 'e2e-ipmi-bmc-outage');
  baseline = await serverRecords(env, SERVER.uuid);
  // A short deletion deadline: with the BMC gone, deletion stops waiting for power off and deprovisioning after a minute.
  operator = startOperatorProcess({ env, namespace, label: 'ipmi-bmc-outage', extraEnv: { DELETION_TIMEOUT: '60s' } });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${HOST}-bmc`, namespace }, stringData: env.bmcCredentials! },
    { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
      metadata: { name: HOST, namespace, annotations: { 'inspect.metal3.io': 'disabled' } },
      spec: { online: true, bootMACAddress: SERVER.macs[0], automatedCleaningMode: 'disabled',
        bmc: { address: ipmiBmc.address, credentialsName: `${HOST}-bmc` } } },
  ] }));
}, minutes(2));

afterAll(async () => {
  // Server 67's IPMI must be back for whoever uses it next.
  if (bmcDown) await startIsolatedIpmiBmc();
  await tearDownHostTest({ env, kubectl, namespace, operator });
  kubectl.dispose();
}, minutes(6));

describe('an IPMI BMC that stops answering', () => {
  it('mid-provisioning: the host says its BMC is not answering, then provisions once the BMC is back', async () => {
    const available = await waitForHost(kubectl, namespace, HOST, inState('available'), { timeoutMs: minutes(4), failOnError: true });
    const nodeUuid = available.status!.provisioning!.ID!;
    await kubectl.ok(['patch', 'bmh', HOST, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: {
      image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' } } })]);
    // Ironic has started the deployment: setting the boot device and powering on go through the BMC.
    await waitFor(async () => ((await ironic.node(nodeUuid)).provision_state === 'deploying' ? true : undefined),
      { timeoutMs: minutes(3), intervalMs: 250, what: 'Ironic to start deploying' });

    const failing = await withIpmiBmcDown(async () => {
      const host = await waitForHost(kubectl, namespace, HOST, (candidate) => manageable(candidate)?.reason === 'PowerFailure',
        { timeoutMs: minutes(5) });
      return { host, events: await hostEvents(kubectl, namespace, HOST), node: await ironic.node(nodeUuid) };
    });
    console.log(`ironic while the IPMI BMC was down: ${JSON.stringify({ provision_state: failing.node.provision_state,
      last_error: failing.node.last_error, maintenance: failing.node.maintenance, fault: failing.node.fault,
      maintenance_reason: failing.node.maintenance_reason })}`);
    // Ironic's ipmitool driver says the IPMI call failed; the host says its BMC is not answering, in
    // the status and a Warning event, with Ironic's words and no password.
    expect(failing.node.last_error ?? failing.node.maintenance_reason).toMatch(/IPMI call failed/);
    expect(manageable(failing.host)).toMatchObject({ status: 'False', reason: 'PowerFailure' });
    expect(manageable(failing.host)?.message).toMatch(/^the BMC is not answering: .*IPMI call failed/);
    expect(failing.events.some((event) => event.startsWith('BMCNotAnswering: the BMC is not answering') && event.includes('IPMI call failed')))
      .toBe(true);
    expect(JSON.stringify(failing)).not.toContain(env.bmcCredentials!.password);

    // Back: the host provisions, Ironic powers the server on through the IPMI BMC, and the image is written once.
    const provisioned = await waitForHost(kubectl, namespace, HOST, healthy('provisioned'), { timeoutMs: minutes(8) });
    expect(provisioned.status?.provisioning?.ID).toBe(nodeUuid);
    const node = await ironic.node(nodeUuid);
    expect([node.provision_state, node.power_state, node.maintenance, node.fault ?? null]).toEqual(['active', 'power on', false, null]);
    expect(await sushyPowerState(env, SERVER.uuid)).toBe('On');
    const server = recordsSince(await serverRecords(env, SERVER.uuid), baseline);
    expect(server.imageWrites).toEqual([expect.objectContaining({ nodeUuid, outcome: 'written' })]);
    expect(await hostEvents(kubectl, namespace, HOST)).toContain('BMCAnswering: the BMC is answering again');
  }, minutes(14));

  it('a power change: the power off fails while the BMC is gone, is retried, and turns the server off once it is back', async () => {
    const before = await waitForHost(kubectl, namespace, HOST, healthy('provisioned'), { timeoutMs: minutes(1) });
    const nodeUuid = before.status!.provisioning!.ID!;
    expect(before.status?.poweredOn).toBe(true);
    const answeredBefore = (await hostEventCounts(kubectl, namespace, HOST)).get('BMCAnswering: the BMC is answering again') ?? 0;
    const failing = await withIpmiBmcDown(async () => {
      await kubectl.ok(['patch', 'bmh', HOST, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { online: false } })]);
      const host = await waitForHost(kubectl, namespace, HOST,
        (candidate) => candidate.status?.errorType === 'power management error' && manageable(candidate)?.reason === 'PowerFailure',
        { timeoutMs: minutes(3) });
      return { host, node: await ironic.node(nodeUuid), power: await sushyPowerState(env, SERVER.uuid) };
    });
    console.log(`ironic after a power off with the IPMI BMC down: ${JSON.stringify({ power_state: failing.node.power_state,
      target_power_state: failing.node.target_power_state, last_error: failing.node.last_error, maintenance: failing.node.maintenance })}`);
    // Ironic could not reach the BMC, so the server is still on; the host says why, with Ironic's words.
    expect(failing.power).toBe('On');
    expect(failing.host.status?.errorMessage).toMatch(/IPMI call failed/);
    expect(failing.host.status?.poweredOn).toBe(true);
    expect(manageable(failing.host)?.message).toMatch(/^the BMC is not answering: .*IPMI call failed/);
    expect(JSON.stringify(failing)).not.toContain(env.bmcCredentials!.password);

    // Back: the operator retries the power off, the server goes off through the IPMI BMC, and the error clears.
    const off = await waitForHost(kubectl, namespace, HOST, (candidate) => healthy('provisioned')(candidate) && candidate.status?.poweredOn === false,
      { timeoutMs: minutes(4) });
    expect(off.status?.errorMessage ?? '').toBe('');
    const node = await ironic.node(nodeUuid);
    expect([node.provision_state, node.power_state, node.last_error ?? null]).toEqual(['active', 'power off', null]);
    expect(await sushyPowerState(env, SERVER.uuid)).toBe('Off');
    expect((await hostEventCounts(kubectl, namespace, HOST)).get('BMCAnswering: the BMC is answering again') ?? 0).toBeGreaterThan(answeredBefore);
  }, minutes(8));

  it('idle: Ironic\'s power sync puts the node in maintenance for a power failure, the host says so, and both recover', async () => {
    // The host is provisioned and off (the power change above), so the power sync expects 'power off'.
    const before = await waitForHost(kubectl, namespace, HOST, healthy('provisioned'), { timeoutMs: minutes(1) });
    expect(before.status?.poweredOn).toBe(false);
    const nodeUuid = before.status!.provisioning!.ID!;
    const answered = async () => (await hostEventCounts(kubectl, namespace, HOST)).get('BMCAnswering: the BMC is answering again') ?? 0;
    const answeredBefore = await answered();
    const failing = await withIpmiBmcDown(async () => {
      // Nothing is asked of the node: only Ironic's periodic power sync reaches for the BMC.
      const node = await waitFor(async () => {
        const current = await ironic.node(nodeUuid);
        return current.fault === 'power failure' ? current : undefined;
      }, { timeoutMs: minutes(5), intervalMs: 1_000, what: 'Ironic to set the power failure fault' });
      const host = await waitForHost(kubectl, namespace, HOST, (candidate) => manageable(candidate)?.reason === 'PowerFailure',
        { timeoutMs: minutes(2) });
      return { node, host };
    });
    console.log(`ironic's power sync with the IPMI BMC down: ${JSON.stringify({ maintenance: failing.node.maintenance,
      fault: failing.node.fault, maintenance_reason: failing.node.maintenance_reason, power_state: failing.node.power_state })}`);
    expect(failing.node.maintenance).toBe(true);
    expect(manageable(failing.host)).toMatchObject({ status: 'False', reason: 'PowerFailure' });
    expect(manageable(failing.host)?.message).toBe(`the BMC is not answering: ${failing.node.maintenance_reason}`);
    expect(failing.host.status?.provisioning?.state).toBe('provisioned');
    expect(JSON.stringify(failing)).not.toContain(env.bmcCredentials!.password);

    // Back: Ironic lifts the fault (power failure recovery), the host says the BMC answers, and the
    // server stayed off throughout: no power change, no new image.
    const recovered = await waitForHost(kubectl, namespace, HOST, healthy('provisioned'), { timeoutMs: minutes(3) });
    expect(recovered.status?.poweredOn).toBe(false);
    const node = await ironic.node(nodeUuid);
    expect([node.provision_state, node.power_state, node.maintenance, node.fault ?? null]).toEqual(['active', 'power off', false, null]);
    expect(await sushyPowerState(env, SERVER.uuid)).toBe('Off');
    expect(recordsSince(await serverRecords(env, SERVER.uuid), baseline).imageWrites).toHaveLength(1);
    expect(await answered()).toBeGreaterThan(answeredBefore);
  }, minutes(10));

  it('deletion: with the BMC gone the host is still deleted, and Ironic keeps no node of it', async () => {
    const nodeUuid = (await getHost(kubectl, namespace, HOST))!.status!.provisioning!.ID!;
    expect((await ironic.node(nodeUuid)).uuid).toBe(nodeUuid);
    const recordsBefore = await serverRecords(env, SERVER.uuid);
    const events = await withIpmiBmcDown(async () => {
      await kubectl.ok(['delete', 'bmh', HOST, '-n', namespace, '--wait=false']);
      await waitFor(async () => ((await getHost(kubectl, namespace, HOST)) === undefined ? true : undefined),
        { timeoutMs: minutes(5), intervalMs: 1_000, what: 'the host to be deleted' });
      return kubectl.ok(['get', 'events', '-n', namespace, '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
    });
    const gone = await fetch(`${env.ironicUrl}/v1/nodes/${nodeUuid}`, { headers: { 'x-openstack-ironic-api-version': '1.95' } });
    expect(gone.status).toBe(404);
    // Past the deadline the power off and deprovisioning Ironic could not do were skipped, but the
    // node's removal was forced rather than given up on; the server itself was left as it was.
    expect(events).toMatch(/CleanupSkipped: giving up on host clean up \(deletion has been running for more than 1m\)/);
    expect(events).not.toContain('giving up on removing the host from the provisioner');
    const server = recordsSince(await serverRecords(env, SERVER.uuid), recordsBefore);
    expect([server.boots, server.imageWrites, server.inspections]).toEqual([[], [], []]);
    expect(await sushyPowerState(env, SERVER.uuid)).toBe('Off');
  }, minutes(7));
});
