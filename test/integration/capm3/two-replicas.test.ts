import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { PROVIDER_IDENTITY } from '../../../hack/stack/controller-identity.ts';
import { freePort } from '../../../hack/stack/ports.ts';
import { isAlive } from '../../../hack/stack/processes.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { namespaceObjectVersions, settledObjectVersions } from '../../support/namespace-writes.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { ClusterApiObjects, fakeHost } from './objects.ts';

jest.setTimeout(300_000);

// Two (then three) provider processes with leader election on one Lease, objects created
// directly as CAPM3's tests do (no Cluster API controllers, no operator). The Lease's terms are
// long enough that a loaded machine still renews well inside them, so this file runs side by side
// with the others, and that a replica frozen for a few seconds of the test keeps its Lease.
const LEASE = { durationS: 30, renewDeadlineS: 25, retryPeriodS: 2 };
const IMAGE = { url: 'http://127.0.0.1:1/image.raw', checksum: 'http://127.0.0.1:1/image.raw.sha256sum', diskFormat: 'raw' };
// What the API server holds that a provider writes: a write shows as a new resourceVersion or a new object.
const WRITTEN_KINDS = 'bmh,m3m,m3c,m3d,m3dc,secrets,events,machines,clusters';

interface Lease { spec: { holderIdentity?: string; acquireTime?: string; renewTime?: string; leaseTransitions?: number } }
interface Host { spec: { consumerRef?: { name: string } } }

const env = readStackEnv();
const kubectl = new Kubectl(env);
const leaseId = `capm3-ha-${randomBytes(4).toString('hex')}`;
let namespace = '';
let objects: ClusterApiObjects;

interface Replica { name: string; provider: ProviderProcess; metricsUrl: string }
const replicas: Replica[] = [];

async function startReplica(name: string): Promise<Replica> {
  const port = await freePort();
  const provider = startProviderProcess({
    env, namespace, label: `ha-${name}-${namespace}`,
    extraEnv: {
      POD_NAME: name, METRICS_BIND_ADDRESS: `127.0.0.1:${port}`,
      LEADER_ELECT: 'true', LEADER_ELECTION_ID: leaseId, LEADER_ELECTION_NAMESPACE: PROVIDER_IDENTITY.namespace,
      LEADER_ELECTION_LEASE_DURATION: `${LEASE.durationS}s`, LEADER_ELECTION_RENEW_DEADLINE: `${LEASE.renewDeadlineS}s`,
      LEADER_ELECTION_RETRY_PERIOD: `${LEASE.retryPeriodS}s`,
    },
  });
  const replica = { name, provider, metricsUrl: `http://127.0.0.1:${port}/metrics` };
  replicas.push(replica);
  return replica;
}

const signal = (replica: Replica, name: NodeJS.Signals) => process.kill(-replica.provider.process.pid, name);

async function lease(): Promise<Lease | undefined> {
  const found = await kubectl.run(['get', 'lease', leaseId, '-n', PROVIDER_IDENTITY.namespace, '-o', 'json']);
  return found.code === 0 ? (JSON.parse(found.stdout) as Lease) : undefined;
}

const holderIs = (replica: Replica) => async () => ((await lease())?.spec.holderIdentity?.startsWith(`${replica.name}_`) ? true : undefined);

/** One series of a replica's metrics page, summed over the samples whose labels match. */
async function metric(replica: Replica, name: string, match: (labels: string) => boolean = () => true): Promise<number | undefined> {
  let page: string;
  try {
    page = await (await fetch(replica.metricsUrl)).text();
  } catch {
    return undefined;
  }
  let total = 0;
  for (const line of page.split('\n')) {
    const sample = /^(\w+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (sample?.[1] === name && match(sample[2] ?? '')) total += Number(sample[3]);
  }
  return total;
}

/** Requests other than reads and watches that reached the API server from this replica. */
const writesSent = (replica: Replica) => metric(replica, 'rest_client_requests_total', (labels) => !labels.includes('method="GET"'));

async function machineWithHost(name: string): Promise<void> {
  await fakeHost(objects, `host-${name}`, { labels: { pool: name } });
  await objects.machine(name, { cluster: 'ha', dataSecretName: 'ha-bootstrap', m3mSpec: { image: IMAGE, hostSelector: { matchLabels: { pool: name } } } });
}

const claimedBy = (machine: string) => async () =>
  ((await objects.get<Host>('bmh', `host-${machine}`)).spec.consumerRef?.name === machine ? true : undefined);

const writtenObjects = () => namespaceObjectVersions(kubectl, namespace, WRITTEN_KINDS);
const settledObjects = () => settledObjectVersions(kubectl, namespace, WRITTEN_KINDS);

/** The gap between the old holder's last renewal and the new holder's acquisition, from the Lease's own times. */
async function handOverFrom(old: Replica, next: Replica): Promise<number> {
  let lastRenewal = '';
  await waitFor(async () => {
    const current = (await lease())?.spec;
    if (current?.holderIdentity?.startsWith(`${old.name}_`)) lastRenewal = current.renewTime ?? '';
    return current?.holderIdentity?.startsWith(`${next.name}_`) ? true : undefined;
  }, { timeoutMs: (LEASE.durationS * 3) * 1_000, intervalMs: 200, what: `${next.name} to take the Lease from ${old.name}` });
  const taken = (await lease())!.spec;
  expect(lastRenewal).not.toBe('');
  return Date.parse(taken.acquireTime!) - Date.parse(lastRenewal);
}

beforeAll(async () => {
  namespace = await createUniqueNamespace(kubectl, 'capm3-ha');
  objects = new ClusterApiObjects(kubectl, namespace);
  await objects.cluster('ha');
  await objects.bootstrapSecret('ha-bootstrap', '#cloud-config\n');
});

afterAll(async () => {
  for (const replica of replicas) {
    if (isAlive(replica.provider.process.pid)) signal(replica, 'SIGCONT');
    await replica.provider.stop();
  }
  await kubectl.run(['delete', 'lease', leaseId, '-n', PROVIDER_IDENTITY.namespace, '--ignore-not-found']);
  if (namespace) await deleteProviderNamespace(kubectl, namespace);
  kubectl.dispose();
});

describe('two provider replicas with leader election', () => {
  it('only the leader acts; a killed leader hands over within the lease; a leader frozen past it writes nothing when it wakes', async () => {
    // a leads (started first), b stands by.
    const a = await startReplica('a');
    await waitFor(holderIs(a), { timeoutMs: 60_000, intervalMs: 500, what: 'a to take the Lease' });
    const b = await startReplica('b');
    await waitFor(async () => ((await metric(b, 'leader_election_master_status')) === 0 ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 500, what: 'b to run as a standby' });

    await machineWithHost('m1');
    await waitFor(claimedBy('m1'), { timeoutMs: 60_000, intervalMs: 300, what: 'the leader to claim host-m1' });
    expect(await writesSent(a)).toBeGreaterThan(0);
    // The standby saw the same work (its Lease reads prove it is up) and wrote nothing, not even to the Lease.
    expect(await metric(b, 'rest_client_requests_total')).toBeGreaterThan(0);
    expect(await writesSent(b)).toBe(0);
    expect(await metric(b, 'controller_runtime_reconcile_total')).toBe(0);

    // SIGKILL: a never hands the Lease back; b waits the lease out, and no longer.
    signal(a, 'SIGKILL');
    await machineWithHost('m2');
    const killGapMs = await handOverFrom(a, b);
    expect(killGapMs).toBeGreaterThanOrEqual(LEASE.durationS * 1_000);
    // The standby polls every retry period (jittered up to 1.2x): it sees the last renewal and its expiry one poll late at most.
    expect(killGapMs).toBeLessThanOrEqual((LEASE.durationS + 3 * LEASE.retryPeriodS + 2) * 1_000);
    await waitFor(claimedBy('m2'), { timeoutMs: 60_000, intervalMs: 300, what: 'the new leader b to claim host-m2' });
    expect(await writesSent(b)).toBeGreaterThan(0);

    // b freezes (SIGSTOP: a hung process or stalled VM) past the lease; c takes over and acts.
    const c = await startReplica('c');
    await waitFor(async () => ((await metric(c, 'leader_election_master_status')) === 0 ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 500, what: 'c to run as a standby' });
    signal(b, 'SIGSTOP');
    await machineWithHost('m3');
    await handOverFrom(b, c);
    await waitFor(claimedBy('m3'), { timeoutMs: 60_000, intervalMs: 300, what: 'the new leader c to claim host-m3' });

    // With c frozen too, only b runs: whatever changes now is b's write.
    signal(c, 'SIGSTOP');
    await machineWithHost('m4');
    // A request c sent just before it froze still lands: start from a namespace that has settled.
    const before = await settledObjects();
    signal(b, 'SIGCONT');
    await waitFor(async () => (isAlive(b.provider.process.pid) ? undefined : true),
      { timeoutMs: 30_000, intervalMs: 100, what: 'b to exit once it finds its Lease lost' });
    expect(await writtenObjects()).toEqual(before);
    expect((await objects.get<Host>('bmh', 'host-m4')).spec.consumerRef).toBeUndefined();
    expect((await lease())?.spec.holderIdentity).toMatch(/^c_/);

    // The work b left alone was real: c, woken, claims it.
    signal(c, 'SIGCONT');
    await waitFor(claimedBy('m4'), { timeoutMs: 60_000, intervalMs: 300, what: 'c to claim host-m4' });
    expect((await lease())?.spec.leaseTransitions).toBe(2);
  });
});
