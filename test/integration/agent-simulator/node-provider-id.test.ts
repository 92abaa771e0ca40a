import { afterAll, describe, expect, it } from '@jest/globals';
import { silentLogger } from '../../../hack/agent-simulator/log.ts';
import { WorkloadCluster, type NodeRegistration } from '../../../hack/agent-simulator/workload-cluster.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { getNode, workloadKubeconfig, workloadKubectl } from './workload-cluster.ts';

/*
 * A simulated kubelet started with --provider-id (CAPM3's e2e templates set it to
 * `metal3://{{ ds.meta_data.providerid }}`), against the real workload API server: the Node it
 * creates carries that providerID; a Node already there keeps its own, as a real kubelet leaves
 * it (the API server refuses to change a providerID once set).
 */
const env = readStackEnv();
const kubectl = workloadKubectl(env);
const cluster = new WorkloadCluster({ kubeconfigPath: workloadKubeconfig(env), attempts: 3, retryIntervalMs: 200, logger: silentLogger() });
const NODE = 'provider-id-worker-0';

const registration = (options: { providerID: string | null; labels: Record<string, string> }): NodeRegistration => ({
  name: NODE, uuid: null, internalIp: '127.0.0.1', nameSource: 'kubeadm', systemUuid: 'd3e7a9c2-65f4-4b8a-9c3d-7eaf9a8b2c43',
  architecture: 'x86_64', ...options,
});
const providerIdOf = async () => ((await getNode(kubectl, NODE)) as { spec?: { providerID?: string } } | undefined)?.spec?.providerID;

afterAll(async () => {
  await kubectl.run(['delete', 'node', NODE, '--ignore-not-found']);
  cluster.close();
  kubectl.dispose();
});

describe('a simulated kubelet with --provider-id', () => {
  it('creates its Node with that providerID', async () => {
    await kubectl.run(['delete', 'node', NODE, '--ignore-not-found', '--wait=true']);
    const given = await cluster.register(registration({ providerID: 'metal3://ns-1/host-0/m3m-0', labels: { tier: 'a' } }));
    expect(given).toBe('metal3://ns-1/host-0/m3m-0');
    expect(await providerIdOf()).toBe('metal3://ns-1/host-0/m3m-0');
  });

  it('re-registering finds the Node there: its labels are the kubelet\'s again, its providerID stays the one it has', async () => {
    const given = await cluster.register(registration({ providerID: 'metal3://ns-1/host-0/m3m-1', labels: { tier: 'b' } }));
    expect(given).toBeNull();
    const node = await getNode(kubectl, NODE);
    expect(node?.metadata.labels?.tier).toBe('b');
    expect(await providerIdOf()).toBe('metal3://ns-1/host-0/m3m-0');
    // A kubelet without the flag leaves it too (its apply never owned the field).
    expect(await cluster.register(registration({ providerID: null, labels: { tier: 'c' } }))).toBeNull();
    expect(await providerIdOf()).toBe('metal3://ns-1/host-0/m3m-0');
    expect((await getNode(kubectl, NODE))?.metadata.labels?.tier).toBe('c');
  });

  it('without the flag, the kubelet\'s Node has no providerID (Cluster API\'s provider sets it)', async () => {
    await cluster.delete(NODE);
    expect(await cluster.register(registration({ providerID: null, labels: {} }))).toBeNull();
    const node = await getNode(kubectl, NODE);
    expect(node?.metadata.name).toBe(NODE);
    expect(await providerIdOf()).toBeUndefined();
  });
});
