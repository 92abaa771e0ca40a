import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { parse } from 'yaml';
import { installIpamCrds } from '../../support/ipam-crds.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { ClusterApiObjects, fakeHost } from './objects.ts';

jest.setTimeout(300_000);

// The provider alone on the real API server: Cluster API objects are created directly and the
// test plays the IP address manager (it answers each IPClaim with an IPAddress).
interface Meta { name: string; uid: string; finalizers?: string[]; ownerReferences?: { kind: string; name: string; uid: string }[]; deletionTimestamp?: string }
interface Condition { type: string; status: string; reason: string; message: string }
interface Data { metadata: Meta; spec: { index: number; claim?: { name: string }; metaData?: { name: string }; networkData?: { name: string } }; status?: { ready?: boolean; errorMessage?: string } }
interface Claim { metadata: Meta; status?: { renderedData?: { name: string } } }
interface IPClaim { metadata: Meta; spec: { pool: { name: string } } }
interface M3M { metadata: Meta; status?: { conditions?: Condition[]; metaData?: { name: string }; networkData?: { name: string }; renderedData?: { name: string } } }
interface Host { spec: { image?: { url: string }; metaData?: { name: string }; networkData?: { name: string }; consumerRef?: { name: string } } }
interface Secret { type: string; data: Record<string, string>; metadata: Meta & { labels?: Record<string, string> } }

const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const CLUSTER = 'data-cluster';
const TEMPLATE = 'nodes';
const POOL = 'provisioning';
const IMAGE = { url: 'http://127.0.0.1:1/image.raw', checksum: 'http://127.0.0.1:1/image.raw.sha256sum', checksumType: 'sha256', diskFormat: 'raw' };
const nics = (n: number) => [{ name: 'eth0', mac: `00:5a:91:00:01:0${n}`, ip: `127.0.1.${n}` }, { name: 'eth1', mac: `00:5a:91:00:02:0${n}` }];

const TEMPLATE_SPEC = {
  clusterName: CLUSTER,
  metaData: {
    strings: [{ key: 'role', value: 'worker' }],
    indexes: [{ key: 'node-index', offset: 10, prefix: 'node-' }],
    objectNames: [{ key: 'machine', object: 'machine' }, { key: 'host', object: 'baremetalhost' }],
    namespaces: [{ key: 'namespace' }],
    fromLabels: [{ key: 'rack', object: 'baremetalhost', label: 'rack' }],
    fromAnnotations: [{ key: 'owner', object: 'metal3machine', annotation: 'example.com/owner' }],
    ipAddressesFromPool: [{ key: 'provisioning-ip', name: POOL }],
    prefixesFromPool: [{ key: 'provisioning-prefix', name: POOL }],
    fromHostInterfaces: [{ key: 'eth1-mac', interface: 'eth1' }],
  },
  networkData: {
    links: { ethernets: [{ type: 'phy', id: 'enp1s0', mtu: 1500, macAddress: { fromHostInterface: 'eth0' } }],
      vlans: [{ id: 'vlan20', vlanID: 20, vlanLink: 'enp1s0', macAddress: { fromHostInterface: 'eth0' } }] },
    networks: { ipv4: [{ id: 'provisioning', link: 'enp1s0', ipAddressFromIPPool: POOL,
      routes: [{ network: '0.0.0.0', prefix: 0, gateway: { fromIPPool: POOL }, services: { dnsFromIPPool: POOL } }] }],
    ipv4DHCP: [{ id: 'dhcp', link: 'vlan20' }] },
    services: { dns: ['10.0.0.53'] },
  },
};

describe('Metal3DataTemplate, Metal3DataClaim and Metal3Data on the real API server', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let objects: ClusterApiObjects;
  let provider: ProviderProcess;

  const find = <T>(kind: string, name: string) => objects.find<T>(kind, name);
  const list = async <T>(kind: string) => (await kubectl.json<{ items: T[] }>(['get', kind, '-n', namespace])).items;
  const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000) => waitFor(probe, { timeoutMs, intervalMs: 300, what });
  const gone = (kind: string, name: string) => until(`${kind} ${name} to be gone`, async () => ((await find(kind, name)) ? undefined : true));
  const secretYaml = (secret: Secret, key: string) => parse(Buffer.from(secret.data[key]!, 'base64').toString('utf8')) as Record<string, unknown>;
  const condition = (m3m: M3M | undefined, type: string) => m3m?.status?.conditions?.find((c) => c.type === type);

  /** Plays the IPAM controller: the claim gets an IPAddress of 192.168.20.0/24. */
  async function allocate(claimName: string, address: string): Promise<void> {
    const name = `${POOL}-${address.replaceAll('.', '-')}`;
    await objects.apply([{ apiVersion: 'ipam.metal3.io/v1alpha1', kind: 'IPAddress', metadata: { name, namespace },
      spec: { address, prefix: 24, gateway: '192.168.20.1', dnsServers: ['192.168.20.2'], claim: { name: claimName, namespace }, pool: { name: POOL, namespace } } }]);
    await objects.patch('ipclaims.ipam.metal3.io', claimName, { status: { address: { name, namespace } } }, { status: true });
  }

  async function machine(name: string, host: number, template = TEMPLATE): Promise<void> {
    await fakeHost(objects, `host-${host}`, { labels: { rack: `r${host}`, for: name }, hardware: { hostname: `host-${host}`, nics: nics(host) } });
    await objects.machine(name, { cluster: CLUSTER, dataSecretName: 'bootstrap', annotations: { 'example.com/owner': `team-${name}` },
      m3mSpec: { image: IMAGE, dataTemplate: { name: template }, hostSelector: { matchLabels: { for: name } } } });
  }

  beforeAll(async () => {
    await Promise.all([installProviderCrds(kubectl, env), installIpamCrds(kubectl, env)]);
    namespace = await createUniqueNamespace(kubectl, 'capm3-data');
    objects = new ClusterApiObjects(kubectl, namespace);
    provider = startProviderProcess({ env, namespace, label: `data-${namespace}` });
    await objects.cluster(CLUSTER);
    await objects.bootstrapSecret('bootstrap', '#cloud-config\n');
    await objects.apply([{ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3DataTemplate',
      metadata: { name: TEMPLATE, namespace }, spec: TEMPLATE_SPEC }]);
  });

  afterAll(async () => {
    await provider?.stop();
    if (namespace) await deleteProviderNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  it('each machine gets a claim, the lowest free index and a Metal3Data with an IPClaim; the host gets no image before the data', async () => {
    await machine('m-a', 1);
    await machine('m-b', 2);
    const datas = await until('two Metal3Data', async () => {
      const found = await list<Data>('m3d');
      return found.length === 2 ? found : undefined;
    });
    expect(datas.map((d) => d.metadata.name).sort()).toEqual([`${TEMPLATE}-0`, `${TEMPLATE}-1`]);
    for (const name of ['m-a', 'm-b']) {
      const claim = await until(`claim ${name} rendered`, async () => {
        const found = await find<Claim>('m3dc', name);
        return found?.status?.renderedData ? found : undefined;
      });
      const m3m = await objects.get<M3M>('m3m', name);
      expect(claim.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Metal3Machine', name, uid: m3m.metadata.uid })]);
      expect(claim.metadata.finalizers?.sort()).toEqual(['metal3dataclaim.infrastructure.cluster.x-k8s.io', 'metal3machine.infrastructure.cluster.x-k8s.io']);
      const data = await objects.get<Data>('m3d', claim.status!.renderedData!.name);
      const ipClaim = await until(`IPClaim of ${data.metadata.name}`, () => find<IPClaim>('ipclaims.ipam.metal3.io', `${data.metadata.name}-${POOL}`));
      expect(ipClaim.spec.pool.name).toBe(POOL);
      expect(ipClaim.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Metal3Data', uid: data.metadata.uid })]);
      expect(ipClaim.metadata.finalizers).toEqual(['metal3data.infrastructure.cluster.x-k8s.io']);
      const waiting = await until(`${name} waiting for its data`, async () => {
        const current = await find<M3M>('m3m', name);
        return condition(current, 'Metal3DataReady')?.reason === 'WaitingForMetal3Data' ? current : undefined;
      });
      expect(condition(waiting, 'Ready')?.status).toBe('False');
    }
    const hostA = await objects.get<Host>('bmh', 'host-1');
    expect(hostA.spec.consumerRef?.name).toBe('m-a');
    expect(hostA.spec.image).toBeUndefined();
    const template = await objects.get<{ metadata: Meta; status?: { indexes?: { name: string; index: number }[] } }>('m3dt', TEMPLATE);
    expect(template.metadata.finalizers).toEqual(['metal3datatemplate.infrastructure.cluster.x-k8s.io']);
    expect(template.status?.indexes?.map((e) => e.index)).toEqual([0, 1]);
  });

  it('once the addresses exist, the Secrets are rendered from every source and the host gets image and data', async () => {
    const dataA = await objects.get<Data>('m3d', (await objects.get<Claim>('m3dc', 'm-a')).status!.renderedData!.name);
    const dataB = await objects.get<Data>('m3d', (await objects.get<Claim>('m3dc', 'm-b')).status!.renderedData!.name);
    await allocate(`${dataA.metadata.name}-${POOL}`, '192.168.20.10');
    await allocate(`${dataB.metadata.name}-${POOL}`, '192.168.20.11');
    const m3m = await until('m-a data ready', async () => {
      const current = await find<M3M>('m3m', 'm-a');
      return condition(current, 'Metal3DataReady')?.status === 'True' ? current : undefined;
    });
    expect(m3m.status?.metaData?.name).toBe('m-a-metadata');
    expect(m3m.status?.networkData?.name).toBe('m-a-networkdata');
    expect(m3m.status?.renderedData?.name).toBe(dataA.metadata.name);
    const host = await until('host-1 to get its image', async () => {
      const current = await find<Host>('bmh', 'host-1');
      return current?.spec.image ? current : undefined;
    });
    expect(host.spec.metaData?.name).toBe('m-a-metadata');
    expect(host.spec.networkData?.name).toBe('m-a-networkdata');

    const metaSecret = await objects.get<Secret>('secret', 'm-a-metadata');
    expect(metaSecret.type).toBe('infrastructure.cluster.x-k8s.io/secret');
    expect(metaSecret.metadata.labels?.['cluster.x-k8s.io/cluster-name']).toBe(CLUSTER);
    expect(metaSecret.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Metal3Data', uid: dataA.metadata.uid })]);
    expect(secretYaml(metaSecret, 'metaData')).toEqual({
      role: 'worker', 'node-index': `node-${10 + dataA.spec.index}`, machine: 'm-a', host: 'host-1', namespace, rack: 'r1', owner: 'team-m-a',
      'provisioning-ip': '192.168.20.10', 'provisioning-prefix': '24', 'eth1-mac': '00:5a:91:00:02:01', providerid: `${namespace}/host-1/m-a`,
    });
    expect(secretYaml(await objects.get<Secret>('secret', 'm-a-networkdata'), 'networkData')).toEqual({
      links: [{ type: 'phy', id: 'enp1s0', mtu: 1500, ethernet_mac_address: '00:5a:91:00:01:01' },
        { type: 'vlan', id: 'vlan20', mtu: 1500, vlan_link: 'enp1s0', vlan_id: 20, vlan_mac_address: '00:5a:91:00:01:01' }],
      networks: [{ type: 'ipv4', id: 'provisioning', link: 'enp1s0', ip_address: '192.168.20.10', netmask: '255.255.255.0',
        routes: [{ network: '0.0.0.0', netmask: '0.0.0.0', gateway: '192.168.20.1', services: [{ type: 'dns', address: '192.168.20.2' }] }] },
      { type: 'ipv4_dhcp', id: 'dhcp', link: 'vlan20', routes: [] }],
      services: [{ type: 'dns', address: '10.0.0.53' }],
    });
    const other = await until('m-b network data', () => find<Secret>('secret', 'm-b-networkdata'));
    expect((secretYaml(other, 'networkData').networks as { ip_address?: string }[])[0]?.ip_address).toBe('192.168.20.11');
    expect((await objects.get<Data>('m3d', dataA.metadata.name)).status).toEqual({ ready: true });
  });

  it('a template that cannot be rendered for a host says why on the Metal3Data and the machine, and never writes the host spec', async () => {
    await objects.apply([{ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3DataTemplate', metadata: { name: 'bad', namespace },
      spec: { metaData: { fromHostInterfaces: [{ key: 'mac', interface: 'eth9' }] } } }]);
    await machine('m-bad', 3, 'bad');
    const data = await until('bad-0 to report its error', async () => {
      const found = await find<Data>('m3d', 'bad-0');
      return found?.status?.errorMessage ? found : undefined;
    });
    expect(data.status).toEqual({ ready: false, errorMessage: "BareMetalHost host-3 has no NIC named 'eth9'" });
    const m3m = await until('m-bad to relay it', async () => {
      const current = await find<M3M>('m3m', 'm-bad');
      return condition(current, 'Metal3DataReady')?.message.includes('eth9') ? current : undefined;
    });
    expect(condition(m3m, 'Metal3DataReady')?.reason).toBe('WaitingForMetal3Data');
    expect((await objects.get<Host>('bmh', 'host-3')).spec.image).toBeUndefined();
    expect(await find('secret', 'm-bad-metadata')).toBeUndefined();
  });

  it('without a data template, the Secrets named in the spec go to the host with the image, as before', async () => {
    await fakeHost(objects, 'host-5', { labels: { for: 'm-own' } });
    await objects.machine('m-own', { cluster: CLUSTER, dataSecretName: 'bootstrap',
      m3mSpec: { image: IMAGE, metaData: { name: 'own-meta' }, networkData: { name: 'own-network' }, hostSelector: { matchLabels: { for: 'm-own' } } } });
    const host = await until('host-5 to get image and data', async () => {
      const current = await find<Host>('bmh', 'host-5');
      return current?.spec.image ? current : undefined;
    });
    expect(host.spec.metaData?.name).toBe('own-meta');
    expect(host.spec.networkData?.name).toBe('own-network');
    const m3m = await until('m-own status', async () => {
      const current = await find<M3M>('m3m', 'm-own');
      return current?.status?.networkData ? current : undefined;
    });
    expect(m3m.status?.metaData?.name).toBe('own-meta');
    expect(await find('m3dc', 'm-own')).toBeUndefined();
  });

  it('while a claim\'s Cluster is paused (clusterctl move) the template serves it no Metal3Data and a moved Metal3Data waits; once unpaused the moved one is used', async () => {
    await objects.cluster('moving');
    await objects.patch('cluster', 'moving', { spec: { paused: true } });
    // What clusterctl creates on the target, without status: a Metal3Machine and its claim, and the claim's Metal3Data (index 9).
    const clusterLabel = (cluster: string) => ({ 'cluster.x-k8s.io/cluster-name': cluster });
    const claimFor = async (name: string, cluster: string) => {
      await objects.apply([{ apiVersion: INFRA, kind: 'Metal3Machine', metadata: { name, namespace, labels: clusterLabel(cluster) }, spec: { image: IMAGE } }]);
      const m3m = await objects.get<M3M>('m3m', name);
      await objects.apply([{ apiVersion: INFRA, kind: 'Metal3DataClaim', metadata: { name, namespace, labels: clusterLabel(cluster),
        ownerReferences: [{ apiVersion: INFRA, kind: 'Metal3Machine', name, uid: m3m.metadata.uid }] }, spec: { template: { name: TEMPLATE } } }]);
    };
    await claimFor('moved-m', 'moving');
    await claimFor('live-m', CLUSTER);
    // One template pass looks at every claim on it: the pass that served live-m (created after moved-m) saw moved-m too.
    await until('live-m claim rendered', async () => (await find<Claim>('m3dc', 'live-m'))?.status?.renderedData);
    const held = await objects.get<Claim>('m3dc', 'moved-m');
    expect(held.status?.renderedData).toBeUndefined();
    expect(held.metadata.finalizers ?? []).toEqual([]);
    expect((await list<Data>('m3d')).filter((data) => data.spec.claim?.name === 'moved-m')).toEqual([]);

    const movedData = `${TEMPLATE}-9`;
    // clusterctl rebuilds the owner chain: the claim (controller) and the machine.
    const owners = [
      { apiVersion: INFRA, kind: 'Metal3DataClaim', name: 'moved-m', uid: held.metadata.uid, controller: true },
      { apiVersion: INFRA, kind: 'Metal3Machine', name: 'moved-m', uid: (await objects.get<M3M>('m3m', 'moved-m')).metadata.uid },
    ];
    await objects.apply([{ apiVersion: INFRA, kind: 'Metal3Data', metadata: { name: movedData, namespace, labels: clusterLabel('moving'), ownerReferences: owners },
      spec: { index: 9, template: { name: TEMPLATE, namespace }, claim: { name: 'moved-m', namespace } } }]);
    await until(`the provider to hold ${movedData} for its paused Cluster`, async () =>
      (readFileSync(provider.logPath, 'utf8').split('\n').some((line) =>
        line.includes('reconciliation is paused for this object') && line.includes(`"name":"${movedData}"`)) ? true : undefined));
    const waiting = await objects.get<Data>('m3d', movedData);
    expect({ finalizers: waiting.metadata.finalizers ?? [], metaData: waiting.spec.metaData }).toEqual({ finalizers: [], metaData: undefined });

    await objects.patch('cluster', 'moving', { spec: { paused: false } });
    const served = await until('moved-m claim rendered', async () => {
      const found = await find<Claim>('m3dc', 'moved-m');
      return found?.status?.renderedData ? found : undefined;
    });
    expect(served.status?.renderedData?.name).toBe(movedData);
    // The Metal3Data controller takes it up: its finalizer and the Secret names it will render.
    const resumed = await until(`${movedData} taken up`, async () => {
      const found = await find<Data>('m3d', movedData);
      return found?.metadata.finalizers?.includes('metal3data.infrastructure.cluster.x-k8s.io') && found.spec.metaData ? found : undefined;
    });
    expect(resumed.spec.metaData?.name).toBe('moved-m-metadata');
    expect((await list<Data>('m3d')).filter((data) => data.spec.claim?.name === 'moved-m').map((data) => data.metadata.name)).toEqual([movedData]);

    await kubectl.ok(['delete', 'm3dc', 'moved-m', 'live-m', '-n', namespace, '--wait=false']);
    for (const name of ['moved-m', 'live-m']) await gone('m3dc', name);
    await kubectl.ok(['delete', 'm3m', 'moved-m', 'live-m', '-n', namespace]);
  });

  it('deleting a machine deletes its claim, Metal3Data, IPClaim and Secrets; the next machine reuses the freed index', async () => {
    const dataB = (await objects.get<Claim>('m3dc', 'm-b')).status!.renderedData!.name;
    const freedIndex = (await objects.get<Data>('m3d', dataB)).spec.index;
    await kubectl.ok(['delete', 'm3m', 'm-b', '-n', namespace, '--wait=false']);
    await gone('m3m', 'm-b');
    for (const [kind, name] of [['m3dc', 'm-b'], ['m3d', dataB], ['ipclaims.ipam.metal3.io', `${dataB}-${POOL}`], ['secret', 'm-b-metadata'], ['secret', 'm-b-networkdata']] as const) {
      await gone(kind, name);
    }
    await machine('m-c', 4);
    const claim = await until('m-c claim rendered', async () => {
      const found = await find<Claim>('m3dc', 'm-c');
      return found?.status?.renderedData ? found : undefined;
    });
    expect(claim.status?.renderedData?.name).toBe(`${TEMPLATE}-${freedIndex}`);
    expect((await objects.get<Data>('m3d', `${TEMPLATE}-${freedIndex}`)).spec.index).toBe(freedIndex);
  });

  it('a template in use is kept while being deleted, still serves claim deletions, and goes after its last machine', async () => {
    await kubectl.ok(['delete', 'm3dt', TEMPLATE, 'bad', '-n', namespace, '--wait=false']);
    await kubectl.ok(['delete', 'm3m', 'm-a', '-n', namespace, '--wait=false']);
    // m-a's claim can only go through the template controller: it ran while the template was being deleted.
    await gone('m3dc', 'm-a');
    const kept = await objects.get<{ metadata: Meta }>('m3dt', TEMPLATE);
    expect(kept.metadata.deletionTimestamp).toBeDefined();
    expect(kept.metadata.finalizers).toEqual(['metal3datatemplate.infrastructure.cluster.x-k8s.io']);
    await kubectl.ok(['delete', 'm3m', 'm-c', 'm-bad', 'm-own', '-n', namespace, '--wait=false']);
    await gone('m3dt', TEMPLATE);
    await gone('m3dt', 'bad');
    expect(await list('m3dc')).toEqual([]);
    expect(await list('m3d')).toEqual([]);
    expect(await list('ipclaims.ipam.metal3.io')).toEqual([]);
    const secrets = await list<Secret>('secret');
    expect(secrets.filter((s) => s.type === 'infrastructure.cluster.x-k8s.io/secret').map((s) => s.metadata.name)).toEqual([]);
  });
});
