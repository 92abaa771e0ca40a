import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { parse } from 'yaml';
import { installIpamCrds } from '../../support/ipam-crds.ts';
import { startIpamProcess, type IpamProcess } from '../../support/ipam-process.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { ClusterApiObjects, fakeHost } from './objects.ts';

jest.setTimeout(300_000);

interface Meta { name: string; uid: string; labels?: Record<string, string>; ownerReferences?: { kind: string; uid: string }[] }
interface IPClaim { metadata: Meta; status?: { address?: { name: string } } }
interface Secret { data: Record<string, string> }

const CLUSTER = 'prealloc';
const POOL = 'provisioning';
const IMAGE = { url: 'http://127.0.0.1:1/image.raw', checksum: 'http://127.0.0.1:1/image.raw.sha256sum', checksumType: 'sha256', diskFormat: 'raw' };

/**
 * CAPM3's --enable-bmh-name-based-preallocation with the real provider and the real IP address
 * manager: an IPPool's preAllocations name the BareMetalHost, whichever machine claims it.
 */
describe('IPClaims named after the BareMetalHost (--enable-bmh-name-based-preallocation)', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let objects: ClusterApiObjects;
  let provider: ProviderProcess;
  let ipam: IpamProcess;

  beforeAll(async () => {
    await Promise.all([installProviderCrds(kubectl, env), installIpamCrds(kubectl, env)]);
    namespace = await createUniqueNamespace(kubectl, 'capm3-prealloc');
    objects = new ClusterApiObjects(kubectl, namespace);
    provider = startProviderProcess({ env, namespace, label: `prealloc-${namespace}`, extraArgs: ['--enable-bmh-name-based-preallocation'] });
    ipam = startIpamProcess({ env, namespace, label: `prealloc-${namespace}` });
  });

  afterAll(async () => {
    await Promise.all([provider?.stop(), ipam?.stop()]);
    if (namespace) await deleteProviderNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  it('claims the address the pool keeps for the host, in a claim named after it and labelled with its data and pool', async () => {
    await objects.cluster(CLUSTER);
    await objects.bootstrapSecret('bootstrap', '#cloud-config\n');
    await objects.apply([
      { apiVersion: 'ipam.metal3.io/v1alpha1', kind: 'IPPool', metadata: { name: POOL, namespace },
        spec: { clusterName: CLUSTER, namePrefix: POOL, prefix: 24, gateway: '127.0.7.1',
          pools: [{ start: '127.0.7.10', end: '127.0.7.60' }],
          // Kept for the host, by the claim name its data will use: the lowest free address would be .10.
          preAllocations: { [`rack-7-${POOL}`]: '127.0.7.50' } } },
      { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3DataTemplate', metadata: { name: 'nodes', namespace },
        spec: { clusterName: CLUSTER, metaData: { ipAddressesFromPool: [{ key: 'provisioning-ip', name: POOL }] } } },
    ]);
    await fakeHost(objects, 'rack-7', { labels: { for: 'worker-a' }, hardware: { hostname: 'rack-7', nics: [{ name: 'eth0', mac: '00:5a:91:00:07:01', ip: '127.0.7.2' }] } });
    await objects.machine('worker-a', { cluster: CLUSTER, dataSecretName: 'bootstrap',
      m3mSpec: { image: IMAGE, dataTemplate: { name: 'nodes' }, hostSelector: { matchLabels: { for: 'worker-a' } } } });

    const claim = await waitFor(async () => {
      const found = await objects.find<IPClaim>('ipclaims.ipam.metal3.io', `rack-7-${POOL}`);
      return found?.status?.address ? found : undefined;
    }, { timeoutMs: 60_000, intervalMs: 300, what: `IPClaim rack-7-${POOL} with an address` });
    const data = claim.metadata.labels?.['infrastructure.cluster.x-k8s.io/data-name'] ?? '';
    expect(data).toMatch(/^nodes-\d+$/);
    expect(claim.metadata.labels?.['infrastructure.cluster.x-k8s.io/pool-name']).toBe(POOL);
    expect(claim.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Metal3Data', uid: (await objects.get<{ metadata: Meta }>('m3d', data)).metadata.uid })]);
    // No claim named after the Metal3Data.
    expect(await objects.find('ipclaims.ipam.metal3.io', `${data}-${POOL}`)).toBeUndefined();

    const secret = await waitFor(() => objects.find<Secret>('secret', 'worker-a-metadata'), { timeoutMs: 60_000, intervalMs: 300, what: 'worker-a-metadata rendered' });
    expect(parse(Buffer.from(secret.data.metaData ?? '', 'base64').toString('utf8'))).toMatchObject({ 'provisioning-ip': '127.0.7.50' });
  });
});
