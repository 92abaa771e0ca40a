import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { HOST_ANNOTATION } from '../../../capm3-provider/api/index.ts';
import { startClusterApiManager, type ClusterApiManager } from '../../../hack/capi/index.ts';
import { sampleClusterObjects } from '../../../hack/dev/sample-cluster.ts';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { tearDownClusterApiFile } from '../../support/cluster-api-teardown.ts';
import { byFaultScale } from '../../support/fault-scale.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { recordsSince, serverRecords } from '../baremetalhost/hosts.ts';
import { ClaimCensus } from './claim-census.ts';
import { ProcessUnderFire } from './process-under-fire.ts';
import { seededRandom } from './seeded-random.ts';

// `kubectl scale machinedeployment` up and down while the provider is SIGKILLed at random
// moments and started again; core Cluster API's real manager and the operator keep running.
// Servers 60-63 are this file's: a control plane host and three workers. Kills: 4 in CI, 12
// with METAL3_TS_FAULTS_SCALE=large. Throughout, hosts and Metal3Machines are sampled for a
// host with two claimants.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const workload = new Kubectl({ kubectl: env.kubectl, kubeconfig: env.workload.kubeconfig });
const minutes = (n: number) => n * 60_000;
const CLUSTER = 'faults-pk';
const MD = `${CLUSTER}-workers`;
const CONTROL_PLANE_HOST = { name: 'faults-pk-cp', system: 60 };
const WORKER_HOSTS = [61, 62, 63].map((system, index) => ({ name: `faults-pk-w${index + 1}`, system }));
const KILLS = byFaultScale({ small: 4, large: 12 });
const random = seededRandom();

let namespace = '';
let capi: ClusterApiManager | undefined;
let operator: OperatorProcess | undefined;
let provider: ProcessUnderFire | undefined;
let census: ClaimCensus;
let unkilled = 0;
/** Kills made in each phase: every phase must see at least one. */
const killsByPhase: number[] = [];
const before = new Map<number, SystemRecords>();

interface Machine { metadata: { name: string }; spec: { infrastructureRef: { name: string } }; status?: { phase?: string } }
interface M3M { metadata: { name: string; annotations?: Record<string, string> } }
interface Host { metadata: { name: string }; spec: { consumerRef?: { name: string }; image?: unknown }; status?: { provisioning?: { state?: string } } }

const list = async <T>(kind: string, selector?: string) =>
  (await kubectl.json<{ items: T[] }>(['get', kind, '-n', namespace, ...(selector ? ['-l', selector] : [])])).items;
const workerMachines = () => list<Machine>('machines.cluster.x-k8s.io', `cluster.x-k8s.io/deployment-name=${MD}`);
const workerHosts = async () => (await list<Host>('bmh')).filter((host) => WORKER_HOSTS.some((worker) => worker.name === host.metadata.name));
const scale = (replicas: number) => kubectl.ok(['scale', 'machinedeployment', MD, '-n', namespace, `--replicas=${replicas}`]);

/** The worker Machines once `count` run, each on its own host that names its Metal3Machine. */
async function workersSettled(count: number): Promise<{ machine: Machine; host: string }[]> {
  let last = '';
  return waitFor(async () => {
    const machines = await workerMachines();
    const m3ms = new Map((await list<M3M>('metal3machines.infrastructure.cluster.x-k8s.io')).map((m3m) => [m3m.metadata.name, m3m]));
    const placed = machines.map((machine) => ({ machine, host: m3ms.get(machine.spec.infrastructureRef.name)?.metadata.annotations?.[HOST_ANNOTATION]?.split('/')[1] ?? '' }));
    const hosts = await workerHosts();
    last = `${placed.map(({ machine, host }) => `${machine.metadata.name} ${machine.status?.phase} on ${host || '-'}`).join(', ')}; hosts ${hosts.map((host) => `${host.metadata.name} ${host.status?.provisioning?.state} ${host.spec.consumerRef?.name ?? '-'}`).join(', ')}`;
    const running = placed.length === count && placed.every(({ machine, host }) => machine.status?.phase === 'Running' && host !== '');
    const unused = hosts.filter((host) => !placed.some((placement) => placement.host === host.metadata.name));
    const released = unused.every((host) => !host.spec.consumerRef && !host.spec.image && host.status?.provisioning?.state === 'available');
    return running && released ? placed : undefined;
  }, { timeoutMs: minutes(14), intervalMs: 2_000, what: `${count} worker Machines running on their own hosts, the other hosts released` })
    .catch((error: Error) => { throw new Error(`${error.message}; last: ${last}`, { cause: error }); });
}

async function underFire<T>(phase: Promise<T>, options: { kills: number; pauseMs: [number, number] }): Promise<T> {
  const before = provider!.kills;
  unkilled = await provider!.killDuring(phase, { count: options.kills + unkilled, pauseMs: options.pauseMs, random });
  killsByPhase.push(provider!.kills - before);
  return phase;
}

beforeAll(async () => {
  console.log(`provider-kills: ${KILLS} kills, seed ${random.seed} (METAL3_TS_FAULTS_SEED replays it)`);
  await installProviderCrds(kubectl, env);
  for (const name of [CONTROL_PLANE_HOST, ...WORKER_HOSTS].map((host) => host.name)) await workload.run(['delete', 'node', name, '--ignore-not-found']);
  for (const { system } of WORKER_HOSTS) before.set(system, await serverRecords(env, env.systems[system]!.uuid));
  namespace = await createUniqueNamespace(kubectl, 'e2e-faults-provider');
  capi = await startClusterApiManager({ env, stateDir: env.stateDir, namespace, label: namespace });
  operator = startOperatorProcess({ env, namespace, label: `faults-pk-${namespace}` });
  provider = new ProcessUnderFire((life) => startProviderProcess({ env, namespace, label: `faults-pk-${life}-${namespace}` }));
  census = new ClaimCensus({ kubectl, namespace });
  const hosts = [{ ...CONTROL_PLANE_HOST, labels: { role: 'control-plane' } }, ...WORKER_HOSTS.map((host) => ({ ...host, labels: { role: 'worker' } }))];
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    ...hostObjects({ env, namespace, hosts: hosts.map((host) => ({ name: host.name, system: env.systems[host.system]!, labels: host.labels, spec: { online: false } })) }),
    ...sampleClusterObjects({ env, namespace, name: CLUSTER, watchLabels: capi.watchLabels,
      controlPlaneHostSelector: { role: 'control-plane' }, workerHostSelector: { role: 'worker' }, workerReplicas: 0 }),
  ] }));
  census.start(2_000);
}, minutes(5));

afterAll(async () => {
  await census?.stop();
  await tearDownClusterApiFile({ env, kubectl, workload, namespace, clusterApiRan: capi !== undefined,
    processes: [provider, operator, capi], nodeNames: [CONTROL_PLANE_HOST, ...WORKER_HOSTS].map((host) => host.name) });
}, minutes(10));

describe(`MachineDeployment scaling with the provider SIGKILLed at random moments (${KILLS} times)`, () => {
  it('scale 0 -> 3: every Machine gets its own host, each imaged once', async () => {
    await scale(3);
    const placed = await underFire(workersSettled(3), { kills: Math.ceil(KILLS / 2), pauseMs: [3_000, 25_000] });
    expect(new Set(placed.map(({ host }) => host)).size).toBe(3);
    for (const { system, name } of WORKER_HOSTS) {
      const since = recordsSince(await serverRecords(env, env.systems[system]!.uuid), before.get(system)!);
      expect({ name, writes: since.imageWrites.filter((write) => write.outcome === 'written').length }).toEqual({ name, writes: 1 });
    }
  }, minutes(16));

  it('scale 3 -> 1: two hosts released, none leaked, the last Machine keeps its host', async () => {
    const [kept] = await workersSettled(3);
    await kubectl.ok(['annotate', 'machines.cluster.x-k8s.io', '-n', namespace, '--all', 'cluster.x-k8s.io/delete-machine=yes']);
    await kubectl.ok(['annotate', 'machines.cluster.x-k8s.io', '-n', namespace, kept!.machine.metadata.name, 'cluster.x-k8s.io/delete-machine-']);
    await scale(1);
    // Releasing takes a minute or two, not the several that provisioning takes: shorter pauses.
    const placed = await underFire(workersSettled(1), { kills: KILLS - Math.ceil(KILLS / 2), pauseMs: [1_000, 8_000] });
    expect(placed.map(({ machine, host }) => [machine.metadata.name, host])).toEqual([[kept!.machine.metadata.name, kept!.host]]);
    // No leaked claim: every claimed host is claimed by a Metal3Machine that exists and names it.
    const m3ms = await list<M3M>('metal3machines.infrastructure.cluster.x-k8s.io');
    for (const host of await list<Host>('bmh')) {
      if (!host.spec.consumerRef) continue;
      const claimant = m3ms.find((m3m) => m3m.metadata.name === host.spec.consumerRef!.name);
      expect({ host: host.metadata.name, claimedBy: claimant?.metadata.annotations?.[HOST_ANNOTATION] }).toEqual({ host: host.metadata.name, claimedBy: `${namespace}/${host.metadata.name}` });
    }
  }, minutes(16));

  it('no host ever had two claimants, with the provider killed in both phases', async () => {
    await census.stop();
    await census.sample();
    console.log(`provider-kills: ${provider!.kills} kills survived (${killsByPhase.join(' up, ')} down), ${census.samples} claim samples, double claims ${census.doubleClaims.size} (seed ${random.seed})`);
    expect(census.samples).toBeGreaterThan(10);
    expect([...census.doubleClaims]).toEqual([]);
    expect(killsByPhase).toHaveLength(2);
    expect(killsByPhase.every((kills) => kills > 0)).toBe(true);
  });
});
