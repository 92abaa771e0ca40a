import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { startClusterApiManager, type ClusterApiManager } from '../../../hack/capi/index.ts';
import { sampleClusterObjects } from '../../../hack/dev/sample-cluster.ts';
import { sampleDataTemplate, sampleIpPool } from '../../../hack/dev/sample-data-template.ts';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { startIpamProcess, type IpamProcess } from '../../support/ipam-process.ts';
import { installIpamCrds } from '../../support/ipam-crds.ts';
import { tearDownClusterApiFile } from '../../support/cluster-api-teardown.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';

// Per-machine network data end to end: core Cluster API's manager scales a MachineDeployment
// whose Metal3MachineTemplate names a Metal3DataTemplate over a Metal3 IPPool; the provider
// renders each machine's network_data.json from the address the IP address manager allocated,
// the operator hands it to Ironic, and the agent simulator records the config drive it received.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const workload = new Kubectl({ kubectl: env.kubectl, kubeconfig: env.workload.kubeconfig });
const minutes = (n: number) => n * 60_000;
jest.setTimeout(minutes(12));

const CLUSTER = 'netdata';
const MD = `${CLUSTER}-workers`;
const TEMPLATE = `${CLUSTER}-workers-data`;
const POOL = `${CLUSTER}-provisioning`;
// Documentation addresses (RFC 5737): rendered into config drives, never contacted.
const POOL_RANGE = { start: '192.0.2.10', end: '192.0.2.19', prefix: 24, gateway: '192.0.2.1', dnsServers: ['192.0.2.53'] };
// Servers 16-19 of the test stack are this file's own.
const CONTROL_PLANE_HOST = { name: 'netdata-cp', system: 16 };
const WORKER_HOSTS = [{ name: 'netdata-a', system: 17 }, { name: 'netdata-b', system: 18 }, { name: 'netdata-c', system: 19 }];
const HOSTS = [CONTROL_PLANE_HOST, ...WORKER_HOSTS];

let namespace = '';
let capi: ClusterApiManager | undefined;
let operator: OperatorProcess | undefined;
let provider: ProviderProcess | undefined;
let ipam: IpamProcess | undefined;

interface Meta { name: string; uid: string; ownerReferences?: { kind: string; name: string }[] }
interface Machine { metadata: Meta; spec: { infrastructureRef: { name: string } } }
interface M3M { metadata: Meta & { annotations?: Record<string, string> }; status?: { renderedData?: { name: string } } }
interface Data { metadata: Meta; spec: { index: number } }
interface IPAddress { metadata: Meta; spec: { address: string; claim: { name: string } } }
interface IPPool { status?: { indexes?: Record<string, string> } }
interface Host {
  metadata: { name: string };
  spec: { consumerRef?: { name: string } };
  status?: { provisioning?: { state?: string }; hardware?: { nics?: { name: string; mac: string }[] } };
}
type ConfigDrive = NonNullable<SystemRecords['imageWrites'][number]['configDrive']>;

const list = async <T>(kind: string, selector?: string) =>
  (await kubectl.json<{ items: T[] }>(['get', kind, '-n', namespace, ...(selector ? ['-l', selector] : [])])).items;
const find = async <T>(kind: string, name: string) => {
  const result = await kubectl.run(['get', kind, name, '-n', namespace, '-o', 'json']);
  return result.code === 0 ? (JSON.parse(result.stdout) as T) : undefined;
};
const scale = (replicas: number) => kubectl.ok(['scale', 'machinedeployment', MD, '-n', namespace, `--replicas=${replicas}`]);
const records = async (system: number) =>
  (await (await fetch(`${env.agentSimulatorUrl}/records/${env.systems[system]!.uuid}`)).json()) as SystemRecords;
const workerHost = (name: string) => WORKER_HOSTS.find((h) => h.name === name)!;
const ipAddresses = () => list<IPAddress>('ipaddresses.ipam.metal3.io');

/** One provisioned worker as the hardware saw it: its host, its Metal3Data index, its pool address and its config drive. */
interface Worker { machine: string; m3m: string; host: string; index: number; address: string; configDrive: ConfigDrive }

/** Waits until `count` workers have hosts provisioned with a config drive written after `since` (agent record time). */
async function provisionedWorkers(count: number, since: string, what: string): Promise<Worker[]> {
  let last: unknown;
  const notYet = (why: unknown) => {
    last = why;
    return undefined;
  };
  return waitFor(async () => {
    const machines = await list<Machine>('machines.cluster.x-k8s.io', `cluster.x-k8s.io/deployment-name=${MD}`);
    if (machines.length !== count) return notYet({ machines: machines.length });
    const workers: Worker[] = [];
    for (const machine of machines) {
      const m3m = await find<M3M>('m3m', machine.spec.infrastructureRef.name);
      const hostName = m3m?.metadata.annotations?.['metal3.io/BareMetalHost']?.split('/')[1];
      const dataName = m3m?.status?.renderedData?.name;
      if (!m3m || !hostName || !dataName) return notYet({ m3m: machine.spec.infrastructureRef.name, hostName, dataName });
      const host = await find<Host>('bmh', hostName);
      if (host?.status?.provisioning?.state !== 'provisioned') return notYet({ hostName, state: host?.status?.provisioning?.state });
      const write = (await records(workerHost(hostName).system)).imageWrites.filter((w) => w.at > since && w.outcome === 'written').at(-1);
      if (!write?.configDrive.networkData) return notYet({ hostName, write: 'none since' });
      const data = (await find<Data>('m3d', dataName))!;
      const address = (await ipAddresses()).find((a) => a.spec.claim.name === `${dataName}-${POOL}`);
      if (!address) return notYet({ dataName, address: 'none' });
      workers.push({ machine: machine.metadata.name, m3m: m3m.metadata.name, host: hostName, index: data.spec.index, address: address.spec.address, configDrive: write.configDrive });
    }
    return workers;
  }, { timeoutMs: minutes(10), intervalMs: 2_000, what }).catch((error: Error) => {
    throw new Error(`${error.message}; last: ${JSON.stringify(last)}`);
  });
}

/** What the template renders for one worker, checked on what the server received. */
async function expectNetworkData(worker: Worker): Promise<void> {
  const host = (await find<Host>('bmh', worker.host))!;
  const mac = host.status?.hardware?.nics?.find((nic) => nic.name === 'enp1s0')?.mac;
  expect(mac).toBe(env.systems[workerHost(worker.host).system]!.macs[0]);
  expect(worker.configDrive.networkData).toEqual({
    links: [{ type: 'phy', id: 'enp1s0', mtu: 1500, ethernet_mac_address: mac }],
    networks: [{ type: 'ipv4', id: 'provisioning', link: 'enp1s0', ip_address: worker.address, netmask: '255.255.255.0',
      routes: [{ network: '0.0.0.0', netmask: '0.0.0.0', gateway: POOL_RANGE.gateway, services: [] }] }],
    services: [{ type: 'dns', address: POOL_RANGE.dnsServers[0] }],
  });
  expect(worker.configDrive.metaData).toMatchObject({
    name: worker.machine, 'node-index': `worker-${worker.index}`, 'provisioning-ip': worker.address,
    'boot-mac': env.systems[workerHost(worker.host).system]!.macs[0], providerid: `${namespace}/${worker.host}/${worker.m3m}`,
  });
}

beforeAll(async () => {
  await Promise.all([installProviderCrds(kubectl, env), installIpamCrds(kubectl, env)]);
  for (const host of HOSTS) await workload.run(['delete', 'node', host.name, '--ignore-not-found']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-netdata');
  capi = await startClusterApiManager({ env, stateDir: env.stateDir, namespace, label: namespace });
  operator = startOperatorProcess({ env, namespace, label: `netdata-${namespace}` });
  provider = startProviderProcess({ env, namespace, label: `netdata-${namespace}` });
  ipam = startIpamProcess({ env, namespace, label: `netdata-${namespace}` });
  const hosts = [{ ...CONTROL_PLANE_HOST, labels: { role: 'control-plane' } }, ...WORKER_HOSTS.map((h) => ({ ...h, labels: { role: 'worker' } }))];
  // The NICs the template reads come from BMO's hardwaredetails annotation instead of an
  // inspection boot (one ramdisk boot less per server); inspection itself is proven elsewhere.
  const suppliedHardware = (system: number) => JSON.stringify({
    cpu: { arch: 'x86_64', count: 2 }, ramMebibytes: 4096, hostname: HOSTS.find((h) => h.system === system)!.name,
    nics: env.systems[system]!.macs.map((mac, i) => ({ name: `enp${i + 1}s0`, mac })),
    storage: [{ name: '/dev/sda', sizeBytes: 53687091200, type: 'HDD' }],
  });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    sampleIpPool({ namespace, name: POOL, clusterName: CLUSTER, ...POOL_RANGE }),
    sampleDataTemplate({ namespace, name: TEMPLATE, clusterName: CLUSTER, pool: POOL }),
    ...hostObjects({ env, namespace, hosts: hosts.map((h) => ({ name: h.name, system: env.systems[h.system]!, labels: h.labels, spec: { online: false },
      annotations: { 'inspect.metal3.io': 'disabled', 'inspect.metal3.io/hardwaredetails': suppliedHardware(h.system) } })) }),
    ...sampleClusterObjects({ env, namespace, name: CLUSTER, watchLabels: capi.watchLabels, controlPlaneHostSelector: { role: 'control-plane' },
      workerHostSelector: { role: 'worker' }, workerReplicas: 2, workerDataTemplate: TEMPLATE }),
  ] }));
}, minutes(5));

afterAll(async () => {
  await tearDownClusterApiFile({ env, kubectl, workload, namespace, clusterApiRan: capi !== undefined,
    processes: [provider, operator, capi, ipam], nodeNames: HOSTS.map((host) => host.name) });
}, minutes(10));

describe('a MachineDeployment with a Metal3DataTemplate over an IPPool', () => {
  const start = new Date(0).toISOString();
  let released: Worker | undefined;

  it('provisions 2 workers whose config drives hold their own network data and distinct pool addresses', async () => {
    const workers = await provisionedWorkers(2, start, 'two provisioned workers with network data');
    for (const worker of workers) await expectNetworkData(worker);
    const addresses = workers.map((w) => w.address);
    expect(new Set(addresses).size).toBe(2);
    expect(addresses.every((a) => /^192\.0\.2\.1\d$/.test(a))).toBe(true);
    expect(workers.map((w) => w.index).sort()).toEqual([0, 1]);
    const pool = (await find<IPPool>('ippools.ipam.metal3.io', POOL))!;
    expect(Object.values(pool.status?.indexes ?? {}).sort()).toEqual([...addresses].sort());
  });

  it('scale 2 -> 1: the removed worker\'s claim, Metal3Data, IPClaim, IPAddress and Secrets go and its pool address is free', async () => {
    const workers = await provisionedWorkers(2, start, 'two provisioned workers');
    released = workers.find((w) => w.index === 1)!;
    await kubectl.ok(['annotate', 'machines.cluster.x-k8s.io', released.machine, '-n', namespace, 'cluster.x-k8s.io/delete-machine=yes']);
    await scale(1);
    const dataName = `${TEMPLATE}-${released.index}`;
    await waitFor(async () => {
      const host = await find<Host>('bmh', released!.host);
      const left = await Promise.all([find('m3dc', released!.m3m), find('m3d', dataName), find('ipclaims.ipam.metal3.io', `${dataName}-${POOL}`),
        find('secret', `${released!.m3m}-metadata`), find('secret', `${released!.m3m}-networkdata`)]);
      const address = (await ipAddresses()).find((a) => a.spec.address === released!.address);
      return host?.status?.provisioning?.state === 'available' && !host.spec.consumerRef && left.every((o) => o === undefined) && !address ? true : undefined;
    }, { timeoutMs: minutes(4), intervalMs: 1_000, what: `${released.machine}'s data and address released and ${released.host} available` });
    const pool = (await find<IPPool>('ippools.ipam.metal3.io', POOL))!;
    expect(Object.values(pool.status?.indexes ?? {})).not.toContain(released.address);
    const template = (await find<{ status?: { indexes?: { index: number }[] } }>('m3dt', TEMPLATE))!;
    expect(template.status?.indexes?.map((e) => e.index)).toEqual([0]);
  });

  it('scale 1 -> 2: the new worker gets the freed index and the freed address, on its config drive', async () => {
    const before = new Date().toISOString();
    await scale(2);
    const workers = await provisionedWorkers(2, start, 'two provisioned workers again');
    const added = workers.find((w) => w.machine !== released!.machine && w.index === released!.index);
    expect(added).toBeDefined();
    expect(added!.address).toBe(released!.address);
    const fresh = (await records(workerHost(added!.host).system)).imageWrites.filter((w) => w.at > before && w.outcome === 'written').at(-1);
    expect(fresh?.configDrive.networkData).toEqual(added!.configDrive.networkData);
    await expectNetworkData(added!);
  });

  it('deleting the Cluster leaves no claim, Metal3Data, IPClaim, IPAddress or rendered Secret, and every host available', async () => {
    await kubectl.ok(['delete', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await find('clusters.cluster.x-k8s.io', CLUSTER)) ? undefined : true),
      { timeoutMs: minutes(5), intervalMs: 2_000, what: 'the Cluster to be deleted' });
    await waitFor(async () => {
      const hosts = await list<Host>('bmh');
      return hosts.every((h) => h.status?.provisioning?.state === 'available' && !h.spec.consumerRef) ? true : undefined;
    }, { timeoutMs: minutes(3), intervalMs: 2_000, what: 'every host available again' });
    const leftovers = await waitFor(async () => {
      const found = {
        claims: await list('m3dc'), datas: await list('m3d'), ipClaims: await list('ipclaims.ipam.metal3.io'), addresses: await ipAddresses(),
        secrets: (await list<{ type: string }>('secret')).filter((s) => s.type === 'infrastructure.cluster.x-k8s.io/secret'),
      };
      return Object.values(found).every((items) => items.length === 0) ? found : undefined;
    }, { timeoutMs: minutes(2), intervalMs: 1_000, what: 'no data or address objects left' });
    expect(leftovers.claims).toEqual([]);
    // Nothing holds the template or the pool any more: both can go.
    await kubectl.ok(['delete', 'm3dt', TEMPLATE, '-n', namespace, '--wait=false']);
    await kubectl.ok(['delete', 'ippools.ipam.metal3.io', POOL, '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await find('m3dt', TEMPLATE)) || (await find('ippools.ipam.metal3.io', POOL)) ? undefined : true),
      { timeoutMs: minutes(1), intervalMs: 1_000, what: 'the template and the pool to be deleted' });
  });
});
