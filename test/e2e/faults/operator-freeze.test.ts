import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OPERATOR_IDENTITY } from '../../../hack/stack/controller-identity.ts';
import { isAlive } from '../../../hack/stack/processes.ts';
import { freePort } from '../../../hack/stack/ports.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { namespaceObjectVersions, settledObjectVersions } from '../../support/namespace-writes.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { inState, sushyPowerState, tearDownHostTest, waitForHost, waitForSushyPower } from '../baremetalhost/hosts.ts';

// Two operator replicas with leader election over one host on emulated server 37. The leader is
// frozen (SIGSTOP: a hung process, a stalled VM) past its Lease, the standby takes over, and the
// old leader is woken with work waiting that only it could do at that moment: it must write
// nothing, to the API server or to Ironic, and exit. The Lease's terms are long enough that a
// loaded machine renews well inside them, so the file runs side by side with the others.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const ironic = new RawIronic(env.ironicUrl);
const minutes = (n: number) => n * 60_000;
const SERVER = env.systems[37]!;
const LEASE = { id: `operator-freeze-${randomBytes(4).toString('hex')}`, durationS: 30, renewDeadlineS: 25, retryPeriodS: 2 };
// What the API server holds that the operator writes: a write shows as a new resourceVersion or a new object.
const WRITTEN_KINDS = 'bmh,hardwaredata,hostfirmwaresettings,hostfirmwarecomponents,secrets,events';

interface Replica { name: string; operator: OperatorProcess; metricsUrl: string }
interface Lease { spec: { holderIdentity?: string } }

let namespace = '';
const replicas: Replica[] = [];

async function startReplica(name: string): Promise<Replica> {
  const port = await freePort();
  const operator = startOperatorProcess({
    env, namespace, label: `freeze-${name}-${namespace}`,
    extraEnv: {
      POD_NAME: name, LEADER_ELECT: 'true', LEADER_ELECTION_ID: LEASE.id, LEADER_ELECTION_NAMESPACE: OPERATOR_IDENTITY.namespace,
      LEADER_ELECTION_LEASE_DURATION: `${LEASE.durationS}s`, LEADER_ELECTION_RENEW_DEADLINE: `${LEASE.renewDeadlineS}s`,
      LEADER_ELECTION_RETRY_PERIOD: `${LEASE.retryPeriodS}s`, METRICS_BIND_ADDRESS: `127.0.0.1:${port}`,
    },
  });
  const replica = { name, operator, metricsUrl: `http://127.0.0.1:${port}/metrics` };
  replicas.push(replica);
  return replica;
}

const signal = (replica: Replica, name: NodeJS.Signals) => process.kill(-replica.operator.process.pid, name);

async function leaseHolder(): Promise<string | undefined> {
  const found = await kubectl.run(['get', 'lease', LEASE.id, '-n', OPERATOR_IDENTITY.namespace, '-o', 'json']);
  return found.code === 0 ? (JSON.parse(found.stdout) as Lease).spec.holderIdentity : undefined;
}

const holds = (replica: Replica) => async () => ((await leaseHolder())?.startsWith(`${replica.name}_`) ? true : undefined);

async function isStandby(replica: Replica): Promise<true | undefined> {
  const page = await (await fetch(replica.metricsUrl).catch(() => undefined))?.text();
  return page !== undefined && /^leader_election_master_status\{[^}]*\} 0$/m.test(page) ? true : undefined;
}

const writtenObjects = () => namespaceObjectVersions(kubectl, namespace, WRITTEN_KINDS);
const settledObjects = () => settledObjectVersions(kubectl, namespace, WRITTEN_KINDS);

beforeAll(async () => {
  namespace = await createUniqueNamespace(kubectl, 'e2e-operator-freeze');
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bmc', namespace }, stringData: env.bmcCredentials! },
    { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: 'frozen', namespace, annotations: { 'inspect.metal3.io': 'disabled' } },
      spec: { online: true, bootMACAddress: SERVER.macs[0], bmc: { address: SERVER.redfishAddress, credentialsName: 'bmc' }, automatedCleaningMode: 'disabled' } },
  ] }));
}, minutes(2));

afterAll(async () => {
  for (const replica of replicas) if (isAlive(replica.operator.process.pid)) signal(replica, 'SIGCONT');
  const leader = replicas.find((replica) => isAlive(replica.operator.process.pid));
  for (const replica of replicas) if (replica !== leader) await replica.operator.stop();
  await tearDownHostTest({ env, kubectl, namespace, operator: leader?.operator });
  await kubectl.run(['delete', 'lease', LEASE.id, '-n', OPERATOR_IDENTITY.namespace, '--ignore-not-found']);
}, minutes(6));

describe('an operator leader frozen past its Lease', () => {
  it('writes nothing to the API server or Ironic when it wakes, and exits; the new leader does the work', async () => {
    const a = await startReplica('a');
    await waitFor(holds(a), { timeoutMs: 60_000, intervalMs: 500, what: 'a to take the Lease' });
    const b = await startReplica('b');
    await waitFor(() => isStandby(b), { timeoutMs: 60_000, intervalMs: 500, what: 'b to run as a standby' });
    const host = await waitForHost(kubectl, namespace, 'frozen', inState('available'), { timeoutMs: minutes(4), failOnError: true });
    await waitForSushyPower(env, SERVER.uuid, 'On', minutes(2));
    const nodeId = host.status!.provisioning!.ID!;

    // a freezes; b waits the Lease out and leads.
    signal(a, 'SIGSTOP');
    await waitFor(holds(b), { timeoutMs: (LEASE.durationS * 3) * 1_000, intervalMs: 500, what: 'b to take the Lease from a' });

    // b freezes for a moment (well inside its renew deadline), so whatever changes now is a's doing.
    signal(b, 'SIGSTOP');
    // Work only a leader may do: power the server off.
    await kubectl.ok(['patch', 'bmh', 'frozen', '-n', namespace, '--type=merge', '-p', '{"spec":{"online":false}}']);
    const before = await settledObjects();
    signal(a, 'SIGCONT');
    await waitFor(async () => (isAlive(a.operator.process.pid) ? undefined : true),
      { timeoutMs: 30_000, intervalMs: 100, what: 'a to exit once it finds its Lease lost' });
    expect(await writtenObjects()).toEqual(before);
    const node = await ironic.node(nodeId);
    expect([node.power_state, node.target_power_state ?? null]).toEqual(['power on', null]);
    expect(await sushyPowerState(env, SERVER.uuid)).toBe('On');
    expect(await leaseHolder()).toMatch(/^b_/);

    // The work a left alone was real: b, woken, does it, on the hardware.
    signal(b, 'SIGCONT');
    await waitForSushyPower(env, SERVER.uuid, 'Off', minutes(2));
    await waitForHost(kubectl, namespace, 'frozen', (current) => current.status?.poweredOn === false, { timeoutMs: minutes(2), failOnError: true });
  }, minutes(8));
});
