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
});
