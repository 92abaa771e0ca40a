import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { startClusterApiManager, type ClusterApiManager } from '../../../hack/capi/index.ts';
import { sampleClusterObjects, workerTemplate } from '../../../hack/dev/sample-cluster.ts';
import { sampleDataTemplate, sampleIpPool } from '../../../hack/dev/sample-data-template.ts';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { tearDownClusterApiFile } from '../../support/cluster-api-teardown.ts';
import { installIpamCrds } from '../../support/ipam-crds.ts';
import { startIpamProcess, type IpamProcess } from '../../support/ipam-process.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';

// CAPM3's node reuse as Metal3 users run upgrades on hardware they cannot spare: a
// MachineDeployment whose Metal3MachineTemplate says `nodeReuse: true`, rolled with maxSurge 0,
// gets its server back for the new Machine (disks untouched, automated cleaning off) instead of
// a free one. Core Cluster API's manager rolls the MachineDeployment, the provider books the
// released host for it, the operator deprovisions and provisions it again through real Ironic.
// With CAPM3's IP reuse (its e2e runs it with node reuse): the provider names each IPClaim after
// the host (`--enable-bmh-name-based-preallocation`) and the IPPool keeps an address for that
// name, so the server comes back with the same address on its config drive.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const workload = new Kubectl({ kubectl: env.kubectl, kubeconfig: env.workload.kubeconfig });
const minutes = (n: number) => n * 60_000;
jest.setTimeout(minutes(10));

const CLUSTER = 'reuse';
const MD = `${CLUSTER}-workers`;
const REUSE_LABEL = 'infrastructure.cluster.x-k8s.io/node-reuse';
const FAILURE_DOMAIN_LABEL = 'infrastructure.cluster.x-k8s.io/failure-domain';
// Servers 98-100 of the test stack are this file's own.
const CONTROL_PLANE_HOST = { name: 'reuse-cp', system: 98 };
const KEPT_HOST = { name: 'reuse-kept', system: 99 };
/**
 * A free worker host in the failure domain the rolled Machine asks for: without node reuse the
 * provider would prefer it over the released one, so the rollout landing elsewhere cannot be luck.
 */
const DECOY_HOST = { name: 'reuse-decoy', system: 100 };
const DECOY_DOMAIN = 'fd-decoy';
const DATA_TEMPLATE = `${CLUSTER}-workers-data`;
const POOL = `${CLUSTER}-provisioning`;
// Documentation addresses (RFC 5737): rendered into config drives, never contacted. The kept
// address is not the pool's first, which a claim without a pre-allocation would get.
const POOL_RANGE = { start: '192.0.2.10', end: '192.0.2.19', prefix: 24, gateway: '192.0.2.1', dnsServers: ['192.0.2.53'] };
const KEPT_ADDRESS = '192.0.2.15';
const KEPT_CLAIM = `${KEPT_HOST.name}-${POOL}`;

let namespace = '';
let capi: ClusterApiManager | undefined;
let operator: OperatorProcess | undefined;
let provider: ProviderProcess | undefined;
let ipam: IpamProcess | undefined;
/** Image writes the agent simulator recorded per server before this file (a reused stack keeps them). */
const writesBefore = new Map<number, number>();

interface Condition { type: string; status: string; reason?: string; message?: string }
interface Machine {
  metadata: { name: string };
  spec: { providerID?: string; infrastructureRef: { name: string } };
  status?: { phase?: string };
}
interface M3M {
  metadata: { annotations?: Record<string, string> };
  spec: { failureDomain?: string };
  status?: { conditions?: Condition[] };
}
interface Host {
  metadata: { labels?: Record<string, string> };
  spec: { consumerRef?: { kind: string; name: string } };
  status?: { provisioning?: { state?: string; image?: { url?: string } } };
}
interface Event { reason: string; message: string; involvedObject: { kind: string; name: string } }

const workerMachines = async () => (await kubectl.json<{ items: Machine[] }>(
  ['get', 'machines.cluster.x-k8s.io', '-n', namespace, '-l', `cluster.x-k8s.io/deployment-name=${MD}`])).items;
const host = (name: string) => kubectl.json<Host>(['get', 'bmh', name, '-n', namespace]);
const m3m = (name: string) => kubectl.json<M3M>(['get', 'm3m', name, '-n', namespace]);
const records = async (system: number) =>
  (await (await fetch(`${env.agentSimulatorUrl}/records/${env.systems[system]!.uuid}`)).json()) as SystemRecords;
const writes = async (system: number) => (await records(system)).imageWrites.slice(writesBefore.get(system) ?? 0)
  .filter((write) => write.outcome === 'written');
const writtenUrls = async (system: number) => (await writes(system)).map((write) => write.url);
/** The provisioning address each image written to the kept server carried on its config drive (network data, meta data). */
const writtenAddresses = async () => (await writes(KEPT_HOST.system)).map((write) => [
  (write.configDrive.networkData as { networks?: { ip_address?: string }[] } | undefined)?.networks?.[0]?.ip_address,
  (write.configDrive.metaData as Record<string, unknown> | undefined)?.['provisioning-ip'],
]);
/** The Metal3Data whose IPClaim holds the kept address, and the address itself. */
const keptClaim = async () => {
  const claim = await kubectl.json<{ metadata: { ownerReferences?: { kind: string; name: string }[] }; status?: { address?: { name: string } } }>(
    ['get', 'ipclaims.ipam.metal3.io', KEPT_CLAIM, '-n', namespace]);
  const address = claim.status?.address ? await kubectl.json<{ spec: { address: string } }>(
    ['get', 'ipaddresses.ipam.metal3.io', claim.status.address.name, '-n', namespace]) : undefined;
  return { owner: claim.metadata.ownerReferences?.find((o) => o.kind === 'Metal3Data')?.name, address: address?.spec.address };
};
const renderedData = async (m3mName: string) =>
  (await kubectl.json<{ status?: { renderedData?: { name: string } } }>(['get', 'm3m', m3mName, '-n', namespace])).status?.renderedData?.name;
const hostOf = (machine: Machine) => machine.spec.providerID?.split('/')[3] ?? '';
const events = async (kind: string, name: string) => (await kubectl.json<{ items: Event[] }>(['get', 'events', '-n', namespace,
  '--field-selector', `involvedObject.kind=${kind},involvedObject.name=${name}`])).items;

/** The one worker Machine, once it runs a Metal3Machine cloned from the template. */
async function runningWorkerFrom(template: string, what: string): Promise<Machine> {
  let last: Machine[] = [];
  return waitFor(async () => {
    last = await workerMachines();
    const [machine] = last;
    if (last.length !== 1 || machine!.status?.phase !== 'Running') return undefined;
    return (await m3m(machine!.spec.infrastructureRef.name)).metadata.annotations?.['cluster.x-k8s.io/cloned-from-name'] === template
      ? machine : undefined;
  }, { timeoutMs: minutes(8), intervalMs: 1_000, what }).catch((error: Error) => {
    throw new Error(`${error.message}; machines: ${JSON.stringify(last.map((m) => [m.metadata.name, m.status?.phase]))}`);
  });
}

beforeAll(async () => {
  await Promise.all([installProviderCrds(kubectl, env), installIpamCrds(kubectl, env)]);
  for (const entry of [CONTROL_PLANE_HOST, KEPT_HOST, DECOY_HOST]) {
    await workload.run(['delete', 'node', entry.name, '--ignore-not-found']);
    writesBefore.set(entry.system, (await records(entry.system)).imageWrites.length);
  }
  namespace = await createUniqueNamespace(kubectl, 'e2e-reuse');
  capi = await startClusterApiManager({ env, stateDir: env.stateDir, namespace, label: namespace });
  operator = startOperatorProcess({ env, namespace, label: `reuse-${namespace}` });
  provider = startProviderProcess({ env, namespace, label: `reuse-${namespace}`, extraArgs: ['--enable-bmh-name-based-preallocation'] });
  ipam = startIpamProcess({ env, namespace, label: `reuse-${namespace}` });
  // The decoy registers now but joins the workers' pool only once the first worker holds its host.
  const hosts: { name: string; system: number; labels: Record<string, string> }[] = [
    { ...CONTROL_PLANE_HOST, labels: { role: 'control-plane' } },
    { ...KEPT_HOST, labels: { role: 'worker' } },
    { ...DECOY_HOST, labels: { role: 'spare', [FAILURE_DOMAIN_LABEL]: DECOY_DOMAIN } },
  ];
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    sampleIpPool({ namespace, name: POOL, clusterName: CLUSTER, ...POOL_RANGE, preAllocations: { [KEPT_CLAIM]: KEPT_ADDRESS } }),
    sampleDataTemplate({ namespace, name: DATA_TEMPLATE, clusterName: CLUSTER, pool: POOL }),
    ...hostObjects({ env, namespace, hosts: hosts.map((h) => ({ name: h.name, system: env.systems[h.system]!, labels: h.labels, spec: { online: false } })) }),
    ...sampleClusterObjects({ env, namespace, name: CLUSTER, watchLabels: capi.watchLabels,
      controlPlaneHostSelector: { role: 'control-plane' }, workerHostSelector: { role: 'worker' }, workerReplicas: 1,
      workerNodeReuse: true, workerRollingUpdate: { maxSurge: 0, maxUnavailable: 1 }, workerDataTemplate: DATA_TEMPLATE }),
  ] }));
}, minutes(5));

afterAll(async () => {
  await tearDownClusterApiFile({ env, kubectl, workload, namespace, clusterApiRan: capi !== undefined,
    processes: [provider, operator, capi, ipam], nodeNames: [CONTROL_PLANE_HOST, KEPT_HOST, DECOY_HOST].map((h) => h.name) });
}, minutes(10));

describe('node reuse: a MachineDeployment rolled with maxSurge 0 gets its own server back, and with IP reuse its address', () => {
  it('the worker runs on the only worker host with the first image', async () => {
    const machine = await runningWorkerFrom(`${CLUSTER}-workers-v1`, 'the first worker to run');
    expect(hostOf(machine)).toBe(KEPT_HOST.name);
    expect(await writtenUrls(KEPT_HOST.system)).toEqual([env.images[0]!.url]);
    const associated = (await m3m(machine.spec.infrastructureRef.name)).status?.conditions?.find((c) => c.type === 'AssociateBareMetalHost');
    expect(associated).toMatchObject({ status: 'True', reason: 'AssociateBareMetalHostSuccess' });
    // The claim is named after the host, and the pool gave it the address kept for that name.
    expect(await keptClaim()).toEqual({ owner: await renderedData(machine.spec.infrastructureRef.name), address: KEPT_ADDRESS });
    expect(await writtenAddresses()).toEqual([[KEPT_ADDRESS, KEPT_ADDRESS]]);
  });

  it('a new template rolls the worker onto the same server, though a free host in its failure domain is available', async () => {
    const [first] = await workerMachines();
    const firstM3M = first!.spec.infrastructureRef.name;
    await kubectl.ok(['label', 'bmh', DECOY_HOST.name, '-n', namespace, '--overwrite', 'role=worker']);
    await waitFor(async () => ((await host(DECOY_HOST.name)).status?.provisioning?.state === 'available' ? true : undefined),
      { timeoutMs: minutes(4), intervalMs: 1_000, what: `${DECOY_HOST.name} to be available` });

    const v2 = env.images[1]!;
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify(workerTemplate({ namespace, name: `${CLUSTER}-workers-v2`, image: v2,
      hostSelector: { role: 'worker' }, nodeReuse: true, dataTemplate: DATA_TEMPLATE })));
    await kubectl.ok(['patch', 'machinedeployment', MD, '-n', namespace, '--type=merge', '-p', JSON.stringify({ spec: { template: { spec: {
      failureDomain: DECOY_DOMAIN, infrastructureRef: { name: `${CLUSTER}-workers-v2` } } } } })]);
    const rolled = await runningWorkerFrom(`${CLUSTER}-workers-v2`, 'the rollout to the v2 template');

    // The new Machine asked for the decoy's failure domain and still got the released server.
    expect(rolled.metadata.name).not.toBe(first!.metadata.name);
    expect(hostOf(rolled)).toBe(KEPT_HOST.name);
    const rolledM3M = await m3m(rolled.spec.infrastructureRef.name);
    expect(rolledM3M.spec.failureDomain).toBe(DECOY_DOMAIN);
    expect(rolledM3M.status?.conditions?.find((c) => c.type === 'AssociateBareMetalHost'))
      .toMatchObject({ status: 'True', reason: 'AssociateBareMetalHostViaNodeReuseSuccess' });
    expect((await events('Metal3Machine', firstM3M)).map((e) => e.message))
      .toContain(`released BareMetalHost ${KEPT_HOST.name} (kept for md-${MD})`);
    expect((await events('Metal3Machine', rolled.spec.infrastructureRef.name)).map((e) => e.message))
      .toContain(`claimed BareMetalHost ${KEPT_HOST.name} (node-reuse)`);

    // The server itself went through it: the first image, then the second written over it.
    const kept = await host(KEPT_HOST.name);
    expect(kept.spec.consumerRef).toMatchObject({ kind: 'Metal3Machine', name: rolled.spec.infrastructureRef.name });
    expect(kept.metadata.labels?.[REUSE_LABEL]).toBeUndefined();
    expect(kept.status?.provisioning?.image?.url).toBe(v2.url);
    expect(await writtenUrls(KEPT_HOST.system)).toEqual([env.images[0]!.url, v2.url]);
    // IP reuse: the new Machine's Metal3Data claimed the host's name again and got the same address.
    expect(await keptClaim()).toEqual({ owner: await renderedData(rolled.spec.infrastructureRef.name), address: KEPT_ADDRESS });
    expect(await writtenAddresses()).toEqual([[KEPT_ADDRESS, KEPT_ADDRESS], [KEPT_ADDRESS, KEPT_ADDRESS]]);

    // The decoy was never claimed nor written to.
    const decoy = await host(DECOY_HOST.name);
    expect(decoy.spec.consumerRef).toBeUndefined();
    expect(decoy.status?.provisioning?.state).toBe('available');
    expect(await writtenUrls(DECOY_HOST.system)).toEqual([]);
  });

  it('scaled to 0 the server stays booked for the MachineDeployment, and scaled to 1 it is its Machine\'s again', async () => {
    await kubectl.ok(['scale', 'machinedeployment', MD, '-n', namespace, '--replicas=0']);
    const booked = await waitFor(async () => {
      const found = await host(KEPT_HOST.name);
      return found.status?.provisioning?.state === 'available' && found.spec.consumerRef?.kind === 'Cluster' ? found : undefined;
    }, { timeoutMs: minutes(4), intervalMs: 1_000, what: `${KEPT_HOST.name} to be deprovisioned and booked` });
    expect(booked.metadata.labels?.[REUSE_LABEL]).toBe(`md-${MD}`);
    expect(booked.spec.consumerRef).toMatchObject({ kind: 'Cluster', name: CLUSTER });
    // The Machine goes after its Metal3Machine, whose finalizer the provider removes only once the host is released.
    await waitFor(async () => ((await workerMachines()).length === 0 ? true : undefined),
      { timeoutMs: minutes(1), intervalMs: 1_000, what: 'the scaled-down Machine to be deleted' });

    await kubectl.ok(['scale', 'machinedeployment', MD, '-n', namespace, '--replicas=1']);
    const again = await runningWorkerFrom(`${CLUSTER}-workers-v2`, 'the worker scaled up again');
    expect(hostOf(again)).toBe(KEPT_HOST.name);
    expect(await writtenUrls(KEPT_HOST.system)).toEqual([env.images[0]!.url, env.images[1]!.url, env.images[1]!.url]);
    expect(await keptClaim()).toEqual({ owner: await renderedData(again.spec.infrastructureRef.name), address: KEPT_ADDRESS });
    expect(await writtenAddresses()).toEqual([[KEPT_ADDRESS, KEPT_ADDRESS], [KEPT_ADDRESS, KEPT_ADDRESS], [KEPT_ADDRESS, KEPT_ADDRESS]]);
    expect((await host(DECOY_HOST.name)).spec.consumerRef).toBeUndefined();
    expect(await writtenUrls(DECOY_HOST.system)).toEqual([]);
  });
});
