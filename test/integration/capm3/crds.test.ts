import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { readStackEnv } from '../../support/stack-env.ts';

const CRDS = ['metal3clusters', 'metal3clustertemplates', 'metal3machines', 'metal3machinetemplates']
  .map((plural) => `${plural}.infrastructure.cluster.x-k8s.io`);

describe('the provider CRDs on the real API server', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';

  beforeAll(async () => {
    await installProviderCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'capm3-crds');
  });

  afterAll(async () => {
    if (namespace) {
      await kubectl.run(['delete', 'm3m,m3mt,m3c,m3ct', '--all', '-n', namespace, '--wait=false']);
      await deleteNamespace(kubectl, namespace);
    }
    kubectl.dispose();
  });

  it('carry the v1beta2 contract label Cluster API reads, and the cluster-api category', async () => {
    for (const name of CRDS) {
      const crd = await kubectl.json<{ metadata: { labels?: Record<string, string> }; spec: { names: { categories?: string[] } } }>(['get', 'crd', name]);
      expect(crd.metadata.labels?.['cluster.x-k8s.io/v1beta2']).toBe('v1beta2');
      expect(crd.spec.names.categories).toEqual(['cluster-api']);
    }
  });

  it('serve CAPM3\'s short names, printer columns and kubectl explain descriptions', async () => {
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
      { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3Machine', metadata: { name: 'm', namespace },
        spec: { image: { url: 'http://127.0.0.1/i.raw', checksum: 'abc', checksumType: 'sha256', diskFormat: 'raw' } } },
      { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3MachineTemplate', metadata: { name: 't', namespace },
        spec: { template: { spec: { customDeploy: { method: 'install_coreos' } } } } },
      { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3Cluster', metadata: { name: 'c', namespace },
        spec: { controlPlaneEndpoint: { host: '127.0.0.1', port: 6443 } } },
      { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3ClusterTemplate', metadata: { name: 'ct', namespace },
        spec: { template: { spec: {} } } },
    ] }));
    const header = (table: string) => (table.split('\n')[0] ?? '').trim().split(/\s+/);
    expect(header(await kubectl.ok(['get', 'm3m', '-n', namespace]))).toEqual(['NAME', 'AGE', 'PROVIDERID', 'PROVISIONED', 'CLUSTER', 'HOST']);
    expect(header(await kubectl.ok(['get', 'm3c', '-n', namespace]))).toEqual(['NAME', 'AGE', 'PROVISIONED', 'ERROR', 'CLUSTER', 'ENDPOINT']);
    expect(await kubectl.ok(['get', 'm3mt,m3ct', '-n', namespace, '-o', 'name'])).toContain('metal3machinetemplate.infrastructure.cluster.x-k8s.io/t');
    const listed = await kubectl.ok(['get', 'cluster-api', '-n', namespace, '-o', 'name']);
    expect(listed).toContain('metal3machine.infrastructure.cluster.x-k8s.io/m');
    expect(listed).toContain('metal3cluster.infrastructure.cluster.x-k8s.io/c');
    const explained = await kubectl.ok(['explain', 'm3m.spec.hostSelector.matchExpressions.operator']);
    expect(explained.replace(/\s+/g, ' ')).toContain('gt/lt compare integers');
  });

  it('reject what the schema forbids, naming the field', async () => {
    const result = await kubectl.run(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'Metal3Machine', metadata: { name: 'bad', namespace }, spec: { automatedCleaningMode: 'sometimes' } }));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('spec.automatedCleaningMode');
  });

  describe('Metal3DataTemplate, checked at admission as CAPM3\'s CRD checks it', () => {
    const template = (name: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'Metal3DataTemplate', metadata: { name, namespace }, spec });
    const ethernet = (id: string, extra: Record<string, unknown> = {}) => ({ type: 'phy', id, macAddress: { fromHostInterface: 'eth0' }, ...extra });
    const dryRun = (name: string, spec: Record<string, unknown>) => kubectl.run(['create', '--dry-run=server', '-o', 'json', '-f', '-'], template(name, spec));

    it('fills CAPM3\'s defaults: link MTU 1500, index step 1, a pool\'s group and kind', async () => {
      const result = await dryRun('defaults', {
        metaData: { indexes: [{ key: 'index' }], ipAddressesFromPool: [{ key: 'ip', name: 'pool' }] },
        networkData: { links: { ethernets: [ethernet('eth0')] }, networks: { ipv4: [{ id: 'n', link: 'eth0', fromPoolRef: { name: 'pool' } }] } },
      });
      expect(result.stderr).toBe('');
      const created = JSON.parse(result.stdout) as { spec: { metaData: Record<string, unknown[]>; networkData: { links: { ethernets: unknown[] }; networks: { ipv4: unknown[] } } } };
      expect(created.spec.networkData.links.ethernets[0]).toMatchObject({ mtu: 1500 });
      expect(created.spec.metaData['indexes']?.[0]).toMatchObject({ step: 1 });
      expect(created.spec.metaData['ipAddressesFromPool']?.[0]).toMatchObject({ apiGroup: 'ipam.metal3.io', kind: 'IPPool' });
      expect(created.spec.networkData.networks.ipv4[0]).toMatchObject({ fromPoolRef: { name: 'pool', apiGroup: 'ipam.metal3.io', kind: 'IPPool' } });
    });

    it.each([
      ['an object CAPM3 cannot read from', { metaData: { fromLabels: [{ key: 'k', object: 'cluster', label: 'l' }] } }, 'spec.metaData.fromLabels[0].object'],
      ['an interface name Linux refuses (more than 15 characters)', { networkData: { links: { ethernets: [ethernet('eth0', { name: 'a-very-long-interface' })] } } }, 'spec.networkData.links.ethernets[0].name'],
      ['two links with one id', { networkData: { links: { ethernets: [ethernet('eth0'), ethernet('eth0')] } } }, 'Duplicate value'],
      ['an MTU below IPv6\'s 1280', { networkData: { links: { ethernets: [ethernet('eth0', { mtu: 576 })] } } }, 'spec.networkData.links.ethernets[0].mtu'],
      ['an IPv4 route to something that is not an address', { networkData: { networks: { ipv4: [{ id: 'n', link: 'eth0', routes: [{ network: '10.0.0.0/8', gateway: { string: '10.0.0.1' } }] }] } } }, 'routes[0].network'],
      ['a DNS server that is not an address', { networkData: { services: { dns: ['dns.example'] } } }, 'spec.networkData.services.dns[0]'],
      ['an empty list', { metaData: { strings: [] } }, 'spec.metaData.strings'],
    ])('refuses %s, naming the field', async (_what, spec, field) => {
      const result = await dryRun('invalid', spec);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(field);
    });
  });
});
