import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { issueEtcdCertificates, type EtcdCa } from '../../../hack/agent-simulator/etcd/etcd-certificates.ts';
import { clientTls, listMembers } from '../../../hack/agent-simulator/etcd/etcd-client.ts';
import { EtcdMember } from '../../../hack/agent-simulator/etcd/etcd-member.ts';
import { SimulatedKubeletServer } from '../../../hack/agent-simulator/kubelet/kubelet-server.ts';
import { loadKubeconfig } from '../../../hack/agent-simulator/kubeconfig.ts';
import { silentLogger } from '../../../hack/agent-simulator/log.ts';
import { WorkloadCluster } from '../../../hack/agent-simulator/workload-cluster.ts';
import { servingCertificate, tlsAddress } from '../../support/serving-certificate.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { getNode, workloadKubeconfig, workloadKubectl } from './workload-cluster.ts';

/*
 * The simulated kubelets' port-forward, driven the way Cluster API's control plane provider
 * drives it: a Go client (kubectl) asks the real workload API server for `pods/portforward`, the
 * API server finds the Pod's Node, dials the kubelet the Node advertises and speaks SPDY to it.
 * The simulator's Node registration and kubelet run in this process; the API server and kubectl
 * are the stack's.
 */
const env = readStackEnv();
const kubeconfig = workloadKubeconfig(env);
const kubectl = workloadKubectl(env);
const NODE = 'port-forward-cp-0';

afterAll(() => kubectl.dispose());

describe('port-forward to a simulated control plane node\'s pods', () => {
  let kubelet: SimulatedKubeletServer;
  let cluster: WorkloadCluster;
  const forwards: { close: () => Promise<void> }[] = [];

  beforeAll(async () => {
    kubelet = await SimulatedKubeletServer.start({ host: '127.0.0.1', port: 0, logger: silentLogger() });
    cluster = new WorkloadCluster({ kubeconfigPath: kubeconfig, attempts: 3, retryIntervalMs: 200, logger: silentLogger(), kubelet });
    await cluster.register({
      name: NODE, labels: {}, uuid: null, providerID: null, internalIp: '127.0.0.1', nameSource: 'system-name', systemUuid: 'b1c5e7a0-43d2-4f6e-9a1b-5c8d7e6f0a21',
      architecture: 'x86_64',
      controlPlane: { components: ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'], imageRepository: 'registry.k8s.io',
        kubernetesVersion: 'v1.35.0', apiServerBindPort: 6443 },
    });
  }, 60_000);

  afterAll(async () => {
    for (const forward of forwards) await forward.close();
    await cluster.delete(NODE);
    cluster.close();
    await kubelet.close();
  }, 60_000);

  it('the Node advertises the kubelet\'s port and a loopback InternalIP, which the API server dials', async () => {
    const node = JSON.parse((await kubectl.run(['get', 'node', NODE, '-o', 'json'])).stdout) as {
      status: { daemonEndpoints: { kubeletEndpoint: { Port: number } }; addresses: { type: string; address: string }[] };
    };
    expect(node.status.daemonEndpoints.kubeletEndpoint.Port).toBe(kubelet.port);
    expect(node.status.addresses).toContainEqual({ type: 'InternalIP', address: '127.0.0.1' });
  });

  it('kube-apiserver-<node> at its bind port is the workload API server (what KCP reads its certificate expiry from)', async () => {
    const forward = await kubectl.portForward({ namespace: 'kube-system', pod: `kube-apiserver-${NODE}`, port: 6443 });
    forwards.push(forward);
    const through = await servingCertificate({ host: '127.0.0.1', port: forward.localPort });
    const direct = await servingCertificate(tlsAddress(loadKubeconfig(kubeconfig).server));
    expect(through).toEqual(direct);
    expect(through.commonName).toBe('kube-apiserver');
  });

  it('a port nothing listens on comes back as the kubelet\'s error through kubectl', async () => {
    const forward = await kubectl.portForward({ namespace: 'kube-system', pod: `kube-scheduler-${NODE}`, port: 10259 });
    forwards.push(forward);
    await expect(servingCertificate({ host: '127.0.0.1', port: forward.localPort })).rejects.toThrow();
    const reported = `error forwarding port 10259 to pod kube-system/kube-scheduler-${NODE}: dial tcp 127.0.0.1:10259`;
    await waitFor(async () => (forward.stderr().includes(reported) ? true : undefined), { what: 'the kubelet\'s error in kubectl\'s output', timeoutMs: 15_000 });
  });

  it('deleting the Node deletes its Pods', async () => {
    await cluster.delete(NODE);
    expect(await getNode(kubectl, NODE)).toBeUndefined();
    const pods = await kubectl.run(['get', 'pods', '-n', 'kube-system', '--field-selector', `spec.nodeName=${NODE}`, '-o', 'name']);
    expect(pods.stdout.trim()).toBe('');
  });
});

/** A throwaway etcd CA, as Cluster API generates a cluster's `<cluster>-etcd` Secret. */
async function etcdCa(dir: string): Promise<EtcdCa> {
  await promisify(execFile)('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=etcd-ca',
    '-keyout', join(dir, 'ca.key'), '-out', join(dir, 'ca.crt')]);
  return { cert: await readFile(join(dir, 'ca.crt'), 'utf8'), key: await readFile(join(dir, 'ca.key'), 'utf8') };
}

describe('stacked etcd on simulated control plane nodes', () => {
  const nodes = ['stacked-etcd-cp-0', 'stacked-etcd-cp-1'];
  const members: EtcdMember[] = [];
  const forwards: { close: () => Promise<void> }[] = [];
  let kubelet: SimulatedKubeletServer;
  let cluster: WorkloadCluster;
  let dir: string;
  let ca: EtcdCa;

  const register = (node: string, etcdClientUrl: string) => cluster.register({
    name: node, labels: {}, uuid: null, providerID: null, internalIp: '127.0.0.1', nameSource: 'system-name', systemUuid: 'c2d6f8b1-54e3-4a7f-8b2c-6d9e8f7a1b32',
    architecture: 'x86_64',
    controlPlane: { components: ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'etcd'], imageRepository: 'registry.k8s.io',
      kubernetesVersion: 'v1.35.0', apiServerBindPort: 6443, etcdClientUrl },
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stacked-etcd-test-'));
    ca = await etcdCa(dir);
    kubelet = await SimulatedKubeletServer.start({ host: '127.0.0.1', port: 0, logger: silentLogger() });
    cluster = new WorkloadCluster({ kubeconfigPath: kubeconfig, attempts: 3, retryIntervalMs: 200, logger: silentLogger(), kubelet });
  }, 60_000);

  afterAll(async () => {
    for (const forward of forwards) await forward.close();
    for (const member of members) await member.stop();
    for (const node of nodes) await cluster.delete(node);
    cluster.close();
    await kubelet.close();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('a second member joins through the client URL the first one\'s etcd Pod advertises, as kubeadm join does', async () => {
    const binary = join(dirname(env.kubectl), 'etcd');
    members.push(await EtcdMember.start({ binary, node: nodes[0]!, ca, cluster: { kind: 'new' }, logger: silentLogger() }));
    await register(nodes[0]!, members[0]!.clientUrl);
    const advertised = await cluster.etcdClientUrls();
    expect(advertised).toContain(members[0]!.clientUrl);
    members.push(await EtcdMember.start({ binary, node: nodes[1]!, ca, cluster: { kind: 'join', memberClientUrls: advertised }, logger: silentLogger() }));
    await register(nodes[1]!, members[1]!.clientUrl);
  });

  it('etcd-<node>:2379 through the API server is that node\'s member, with client certificates from the cluster\'s etcd CA', async () => {
    const forward = await kubectl.portForward({ namespace: 'kube-system', pod: `etcd-${nodes[1]}`, port: 2379 });
    forwards.push(forward);
    const certificates = await issueEtcdCertificates({ dir: await mkdtemp(join(dir, 'client-')), ca, node: 'test-client' });
    const listed = await listMembers({ url: `https://127.0.0.1:${forward.localPort}`, tls: clientTls(certificates) });
    expect(listed.map((member) => member.name).sort()).toEqual([...nodes].sort());
  });
});
