import { describe, expect, it } from '@jest/globals';
import { renderUserData } from './cloud-init-jinja.ts';
import { InstalledOs, type WrittenImage } from './installed-os.ts';
import { kubeadmStep, type BootstrapToken } from './kubeadm.ts';
import { kubeadmInitUserData, kubeadmJoinUserData } from './test-support/kubeadm-user-data.ts';
import { silentLogger } from './log.ts';
import { RecordStore } from './records.ts';
import type { KubeProxyImage, NodeRegistration, WorkloadNodes } from './workload-cluster.ts';

const SYSTEM = '11111111-2222-4333-8444-555555555555';
const BMH_UID = '7c5b1a2e-0d7e-4c39-9f0a-3b1f2f9e6a10';

/** The cluster side as a map of Nodes; `failing` makes calls throw as an unreachable API server would. */
class NodesInMemory implements WorkloadNodes {
  readonly nodes = new Map<string, NodeRegistration>();
  readonly kubeadmConfigs: string[] = [];
  readonly kubeProxies: KubeProxyImage[] = [];
  /** `<id>.<secret>` of the bootstrap tokens the cluster holds. */
  readonly tokens = new Set<string>();
  failing = false;
  /** As the real API server: only a kubelet creating its Node gives it a providerID. */
  async register(node: NodeRegistration): Promise<string | null> {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
    const created = !this.nodes.has(node.name);
    this.nodes.set(node.name, node);
    return created ? node.providerID : null;
  }
  async uploadKubeadmConfig(clusterConfiguration: string): Promise<void> {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
    this.kubeadmConfigs.push(clusterConfiguration);
  }
  async deployKubeProxy(image: KubeProxyImage): Promise<void> {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
    this.kubeProxies.push(image);
  }
  async bootstrapTokenValid(token: BootstrapToken): Promise<boolean> {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
    return this.tokens.has(`${token.id}.${token.secret}`);
  }
  async readClusterConfiguration(): Promise<string | undefined> {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
    return this.kubeadmConfigs.at(-1);
  }
  async etcdClientUrls(): Promise<string[]> {
    return [];
  }
  async delete(name: string): Promise<void> {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
    this.nodes.delete(name);
  }
  close(): void {}
}

function setup(options: { cluster?: WorkloadNodes; provisionState?: string | Error; etcdBinary?: string } = {}) {
  const records = new RecordStore([{ uuid: SYSTEM, name: 'server-0' }]);
  const os = new InstalledOs({
    systemUuid: SYSTEM,
    systemName: 'server-0',
    inventory: { interfaces: [], cpu: { architecture: 'x86_64' } as never },
    cluster: options.cluster,
    provisionState: async () => {
      if (options.provisionState instanceof Error) throw options.provisionState;
      return options.provisionState ?? 'deleting';
    },
    records,
    logger: silentLogger(),
    etcdBinary: options.etcdBinary,
  });
  const nodeRecords = () => records.get(SYSTEM)?.nodes.map(({ at: _at, ...rest }) => rest);
  return { os, records, nodeRecords };
}

const IMAGE_URL = 'http://127.0.0.1:8080/images/test-os.raw';
const image = (hostname: string): WrittenImage => ({
  device: '/dev/sda',
  url: IMAGE_URL,
  nodeUuid: 'ironic-node-1',
  configDrive: { metaData: { uuid: BMH_UID, name: 'bmh' }, userData: `#cloud-config\nhostname: ${hostname}\n` },
});

/** The ClusterConfiguration `kubeadm init` would upload from this bootstrap data. */
function clusterConfigurationOf(userData: string): string {
  const step = kubeadmStep(renderUserData(userData, { 'local-hostname': 'cp-0' }));
  return step && 'clusterConfiguration' in step ? step.clusterConfiguration : '';
}

describe('InstalledOs', () => {
  it('registers a Node only on a boot from a disk that holds an image', async () => {
    const cluster = new NodesInMemory();
    const { os, nodeRecords } = setup({ cluster });
    os.bootedFromDisk();
    await os.settled();
    expect(cluster.nodes.size).toBe(0);

    os.imageWritten(image('worker-0'));
    await os.settled();
    expect(cluster.nodes.size).toBe(0);
    os.bootedFromDisk();
    await os.settled();
    expect(cluster.nodes.get('worker-0')).toMatchObject({ uuid: BMH_UID, systemUuid: SYSTEM, architecture: 'x86_64' });
    expect(os.nodeName).toBe('worker-0');
    expect(nodeRecords()).toEqual([{ kind: 'node-registered', node: 'worker-0', uuid: BMH_UID, providerID: null, addresses: ['127.0.0.1', 'worker-0'] }]);
  });

  it('the kubelet reports the image\'s file name as its OS; an in-place update changes that and its version on the Node at once, and both last over a reboot', async () => {
    const cluster = new NodesInMemory();
    const { os, nodeRecords } = setup({ cluster, provisionState: 'active' });
    expect(os.updateInPlace({ kubeletVersion: 'v1.35.4' })).toBeUndefined();
    os.imageWritten(image('worker-2'));
    os.bootedFromDisk();
    await os.settled();
    expect(cluster.nodes.get('worker-2')).toMatchObject({ osImage: 'test-os.raw' });
    expect(cluster.nodes.get('worker-2')?.kubeletVersion).toBeUndefined();

    expect(os.updateInPlace({ imageUrl: 'http://127.0.0.1:8080/images/test-os-v2.raw', kubeletVersion: 'v1.35.4' })).toEqual({ node: 'worker-2' });
    await os.settled();
    expect(cluster.nodes.get('worker-2')).toMatchObject({ osImage: 'test-os-v2.raw', kubeletVersion: 'v1.35.4' });
    os.poweredOff();
    os.bootedFromDisk();
    await os.settled();
    expect(cluster.nodes.get('worker-2')).toMatchObject({ osImage: 'test-os-v2.raw', kubeletVersion: 'v1.35.4' });
    expect(nodeRecords()?.map((record) => record.kind)).toEqual(['node-registered', 'updated-in-place', 'node-registered', 'node-registered']);
    expect(nodeRecords()?.[1]).toEqual({ kind: 'updated-in-place', node: 'worker-2', imageUrl: 'http://127.0.0.1:8080/images/test-os-v2.raw', kubeletVersion: 'v1.35.4' });

    // A new image is a new OS: nothing of the update is left.
    os.imageWritten(image('worker-2'));
    os.bootedFromDisk();
    await os.settled();
    expect(cluster.nodes.get('worker-2')).toMatchObject({ osImage: 'test-os.raw' });
    expect(cluster.nodes.get('worker-2')?.kubeletVersion).toBeUndefined();
  });

  it('a broken OS registers no Node on boot until repaired; then a boot registers it again', async () => {
    const cluster = new NodesInMemory();
    const { os, nodeRecords } = setup({ cluster, provisionState: 'active' });
    os.imageWritten(image('worker-9'));
    os.bootedFromDisk();
    os.setHealthy(false);
    await os.settled();
    expect(cluster.nodes.has('worker-9')).toBe(true);
    await cluster.delete('worker-9');
    os.poweredOff();
    os.bootedFromDisk();
    await os.settled();
    expect(cluster.nodes.has('worker-9')).toBe(false);
    os.setHealthy(true);
    os.poweredOff();
    os.bootedFromDisk();
    await os.settled();
    expect(cluster.nodes.has('worker-9')).toBe(true);
    expect(nodeRecords()?.map((record) => record.kind)).toEqual(['node-registered', 'node-not-registered', 'node-registered']);
  });

  it('keeps the Node when Ironic says the instance stays, deletes it when it is being deprovisioned', async () => {
    for (const [provisionState, kept] of [['active', true], ['deleting', false], ['available', false], ['cleaning', false]] as const) {
      const cluster = new NodesInMemory();
      const { os, nodeRecords } = setup({ cluster, provisionState });
      os.imageWritten(image('worker-1'));
      os.bootedFromDisk();
      os.poweredOff();
      await os.settled();
      expect([provisionState, cluster.nodes.has('worker-1')]).toEqual([provisionState, kept]);
      if (!kept) expect(nodeRecords()?.at(-1)).toEqual({ kind: 'node-deleted', node: 'worker-1', reason: 'powered-off-for-deprovisioning' });
    }
  });

  it('keeps the Node when the provision state cannot be read', async () => {
    const cluster = new NodesInMemory();
    const { os } = setup({ cluster, provisionState: new Error('HTTP 401') });
    os.imageWritten(image('worker-2'));
    os.bootedFromDisk();
    os.poweredOff();
    await os.settled();
    expect(cluster.nodes.has('worker-2')).toBe(true);
  });

  it('deletes the Node when its disk is wiped or a new image replaces it', async () => {
    const cluster = new NodesInMemory();
    const { os, nodeRecords } = setup({ cluster });
    os.imageWritten(image('worker-3'));
    os.bootedFromDisk();
    os.wiped('/dev/sdb');
    await os.settled();
    expect(cluster.nodes.has('worker-3')).toBe(true);
    os.wiped('/dev/sda');
    await os.settled();
    expect(cluster.nodes.size).toBe(0);
    expect(os.hasImage).toBe(false);

    os.imageWritten(image('worker-4'));
    os.bootedFromDisk();
    await os.settled();
    os.imageWritten(image('worker-5'));
    os.bootedFromDisk();
    await os.settled();
    expect([...cluster.nodes.keys()]).toEqual(['worker-5']);
    expect(nodeRecords()?.map((record) => `${record.kind} ${record.node}`)).toEqual([
      'node-registered worker-3', 'node-deleted worker-3', 'node-registered worker-4', 'node-deleted worker-4', 'node-registered worker-5',
    ]);
  });

  it('records failures and carries on', async () => {
    const cluster = new NodesInMemory();
    cluster.failing = true;
    const { os, nodeRecords } = setup({ cluster });
    os.imageWritten(image('worker-6'));
    os.bootedFromDisk();
    await os.settled();
    expect(nodeRecords()).toEqual([{ kind: 'node-registration-failed', node: 'worker-6', error: 'connect ECONNREFUSED 127.0.0.1:6443' }]);
    cluster.failing = false;
    os.bootedFromDisk();
    await os.settled();
    expect(cluster.nodes.has('worker-6')).toBe(true);
  });

  describe('with Cluster API kubeadm bootstrap data', () => {
    const kubeadmImage = (userData: string): WrittenImage => ({
      device: '/dev/sda', url: IMAGE_URL, nodeUuid: 'ironic-node-1', configDrive: { metaData: { uuid: BMH_UID, 'local-hostname': 'cp-0' }, userData },
    });

    it('kubeadm init uploads the ClusterConfiguration, then the Node registers as a control plane node; only on the image\'s first boot', async () => {
      const cluster = new NodesInMemory();
      const { os, nodeRecords } = setup({ cluster, provisionState: 'active' });
      os.imageWritten(kubeadmImage(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0' })));
      os.bootedFromDisk();
      await os.settled();
      expect(cluster.kubeadmConfigs).toHaveLength(1);
      expect(cluster.kubeadmConfigs[0]).toContain('clusterName: c1');
      expect(cluster.kubeadmConfigs[0]).toContain('kind: ClusterConfiguration');
      // kubeadm's kube-proxy addon, at the cluster's version.
      expect(cluster.kubeProxies).toEqual([{ imageRepository: 'registry.k8s.io', kubernetesVersion: 'v1.35.0' }]);
      // Its kubelet runs kubeadm's static pods, etcd among them: this configuration has no external etcd.
      expect(cluster.nodes.get('cp-0')?.controlPlane).toEqual({
        components: ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'etcd'], imageRepository: 'registry.k8s.io', kubernetesVersion: 'v1.35.0',
        apiServerBindPort: 6443,
      });
      expect(cluster.nodes.get('cp-0')?.kubeletVersion).toBe('v1.35.0');
      // Named by kubeadm's nodeRegistration; labelled only as its kubelet arguments say (here: nothing).
      expect(cluster.nodes.get('cp-0')).toMatchObject({ nameSource: 'kubeadm', labels: {}, uuid: null });
      os.poweredOff();
      os.bootedFromDisk();
      await os.settled();
      expect(cluster.kubeadmConfigs).toHaveLength(1);
      expect(cluster.kubeProxies).toHaveLength(1);
      expect(nodeRecords()?.map((record) => record.kind)).toEqual(['kubeadm-succeeded', 'node-registered', 'node-registered']);
    });

    it('a kubelet with --provider-id (the meta_data\'s providerid) creates its Node with that providerID; a later boot finds the Node there and sets none', async () => {
      const cluster = new NodesInMemory();
      const { os, nodeRecords } = setup({ cluster, provisionState: 'active' });
      await cluster.uploadKubeadmConfig('kind: ClusterConfiguration\nkubernetesVersion: v1.35.0\n');
      cluster.tokens.add('abcdef.0123456789abcdef');
      os.imageWritten({ device: '/dev/sda', url: IMAGE_URL, nodeUuid: 'ironic-node-1', configDrive: {
        metaData: { uuid: BMH_UID, 'local-hostname': 'worker-7', providerid: 'ns-1/host-7/m3m-7' },
        userData: kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: false, providerID: 'metal3://{{ ds.meta_data.providerid }}' }) } });
      os.bootedFromDisk();
      await os.settled();
      expect(cluster.nodes.get('worker-7')?.providerID).toBe('metal3://ns-1/host-7/m3m-7');
      os.poweredOff();
      os.bootedFromDisk();
      await os.settled();
      expect(nodeRecords()?.filter((record) => record.kind === 'node-registered').map((record) => 'providerID' in record && record.providerID))
        .toEqual(['metal3://ns-1/host-7/m3m-7', null]);
    });

    it('an in-place Kubernetes upgrade of a control plane node moves its static pods with its kubelet, as kubeadm upgrade node does', async () => {
      const cluster = new NodesInMemory();
      const { os, nodeRecords } = setup({ cluster, provisionState: 'active' });
      os.imageWritten(kubeadmImage(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0' })));
      os.bootedFromDisk();
      await os.settled();
      expect(os.updateInPlace({ kubeletVersion: 'v1.35.1' })).toEqual({ node: 'cp-0' });
      await os.settled();
      expect(cluster.nodes.get('cp-0')).toMatchObject({ kubeletVersion: 'v1.35.1', controlPlane: { kubernetesVersion: 'v1.35.1' } });
      // Nothing ran kubeadm again: the cluster's configuration and kube-proxy are the control plane provider's to move.
      expect(cluster.kubeadmConfigs).toHaveLength(1);
      expect(cluster.kubeProxies).toEqual([{ imageRepository: 'registry.k8s.io', kubernetesVersion: 'v1.35.0' }]);
      os.poweredOff();
      os.bootedFromDisk();
      await os.settled();
      expect(cluster.nodes.get('cp-0')).toMatchObject({ kubeletVersion: 'v1.35.1', controlPlane: { kubernetesVersion: 'v1.35.1' } });
      expect(nodeRecords()?.map((record) => record.kind)).toEqual(['kubeadm-succeeded', 'node-registered', 'updated-in-place', 'node-registered', 'node-registered']);
    });

    it('kubeadm init with the kube-proxy addon skipped applies no kube-proxy', async () => {
      const cluster = new NodesInMemory();
      const { os, nodeRecords } = setup({ cluster, provisionState: 'active' });
      os.imageWritten(kubeadmImage(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0', skipPhases: ['addon/kube-proxy'] })));
      os.bootedFromDisk();
      await os.settled();
      expect(cluster.kubeadmConfigs).toHaveLength(1);
      expect(cluster.kubeProxies).toEqual([]);
      expect(nodeRecords()?.map((record) => record.kind)).toEqual(['kubeadm-succeeded', 'node-registered']);
    });

    it('with stacked etcd to run, kubeadm init without the cluster\'s etcd CA fails before anything is uploaded', async () => {
      const cluster = new NodesInMemory();
      const { os, nodeRecords } = setup({ cluster, provisionState: 'active', etcdBinary: '/nonexistent/etcd' });
      os.imageWritten(kubeadmImage(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0' })));
      os.bootedFromDisk();
      await os.settled();
      expect(cluster.kubeadmConfigs).toHaveLength(0);
      expect(cluster.nodes.size).toBe(0);
      expect(nodeRecords()).toContainEqual(expect.objectContaining({ kind: 'kubeadm-failed',
        error: 'the bootstrap data has no etcd CA (/etc/kubernetes/pki/etcd/ca.crt and ca.key)' }));
    });

    it('kubeadm join needs a bootstrap token the cluster holds and the cluster\'s configuration; without them no Node ever registers for that image', async () => {
      const cluster = new NodesInMemory();
      const { os, nodeRecords } = setup({ cluster, provisionState: 'active' });
      os.imageWritten(kubeadmImage(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: false })));
      os.bootedFromDisk();
      await os.settled();
      expect(cluster.nodes.size).toBe(0);
      cluster.tokens.add('abcdef.0123456789abcdef');
      os.poweredOff();
      os.bootedFromDisk();
      await os.settled();
      expect(cluster.nodes.size).toBe(0);
      expect(nodeRecords()).toEqual([
        { kind: 'kubeadm-failed', node: 'cp-0', command: 'join', controlPlane: false, error: 'bootstrap token abcdef is not valid in the cluster' },
        { kind: 'node-not-registered', node: 'cp-0', reason: 'kubeadm-failed' },
        { kind: 'node-not-registered', node: 'cp-0', reason: 'kubeadm-failed' },
      ]);

      os.imageWritten(kubeadmImage(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: false })));
      os.bootedFromDisk();
      await os.settled();
      expect(nodeRecords()?.[3]).toEqual({ kind: 'kubeadm-failed', node: 'cp-0', command: 'join', controlPlane: false,
        error: 'the cluster has no kubeadm-config ConfigMap with a ClusterConfiguration' });

      cluster.kubeadmConfigs.push(clusterConfigurationOf(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.34.2' })));
      os.imageWritten(kubeadmImage(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: false })));
      os.bootedFromDisk();
      await os.settled();
      expect(cluster.nodes.get('cp-0')?.controlPlane).toBeUndefined();
      // Its kubelet is the version the cluster runs.
      expect(cluster.nodes.get('cp-0')?.kubeletVersion).toBe('v1.34.2');
      expect(nodeRecords()?.slice(5).map((record) => record.kind)).toEqual(['kubeadm-succeeded', 'node-registered']);
    });

    it('a control plane join reads the cluster\'s ClusterConfiguration and runs what it asks for; without one it fails', async () => {
      const cluster = new NodesInMemory();
      cluster.tokens.add('abcdef.0123456789abcdef');
      const { os, nodeRecords } = setup({ cluster, provisionState: 'active' });
      os.imageWritten(kubeadmImage(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: true })));
      os.bootedFromDisk();
      await os.settled();
      expect(cluster.nodes.size).toBe(0);
      expect(nodeRecords()?.[0]).toEqual({ kind: 'kubeadm-failed', node: 'cp-0', command: 'join', controlPlane: true,
        error: 'the cluster has no kubeadm-config ConfigMap with a ClusterConfiguration' });

      cluster.kubeadmConfigs.push(clusterConfigurationOf(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0', externalEtcd: true })));
      os.imageWritten(kubeadmImage(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: true })));
      os.bootedFromDisk();
      await os.settled();
      // The cluster's etcd is external: no etcd static pod on this node.
      expect(cluster.nodes.get('cp-0')?.controlPlane?.components).toEqual(['kube-apiserver', 'kube-controller-manager', 'kube-scheduler']);
      expect(nodeRecords()?.slice(2).map((record) => record.kind)).toEqual(['kubeadm-succeeded', 'node-registered']);
    });
  });

  it('does nothing about Nodes without a workload cluster, but still tracks the disk', async () => {
    const { os, nodeRecords } = setup();
    os.imageWritten(image('worker-7'));
    os.bootedFromDisk();
    os.poweredOff();
    await os.settled();
    expect(os.hasImage).toBe(true);
    expect(os.nodeName).toBeNull();
    expect(nodeRecords()).toEqual([]);
  });
});
