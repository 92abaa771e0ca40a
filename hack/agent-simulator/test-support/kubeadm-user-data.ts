// User data shaped as Cluster API's kubeadm bootstrap provider renders it (a Jinja header, the
// kubeadm config among write_files, runcmd running kubeadm with it), for the simulator's tests.

const HEADER = '## template: jinja\n#cloud-config\n';
const SENTINEL = 'echo success > /run/cluster-api/bootstrap-success.complete';

const indent = (text: string, spaces: number) => text.split('\n').map((line) => (line === '' ? line : `${' '.repeat(spaces)}${line}`)).join('\n');

/** The etcd CA files Cluster API's bootstrap data writes for a control plane node. */
function etcdCaFiles(ca: { cert: string; key: string } | undefined): string {
  if (ca === undefined) return '';
  const file = (path: string, content: string) =>
    `-   path: ${path}\n    owner: root:root\n    permissions: '0600'\n    content: |\n${indent(content.trimEnd(), 6)}\n`;
  return file('/etc/kubernetes/pki/etcd/ca.crt', ca.cert) + file('/etc/kubernetes/pki/etcd/ca.key', ca.key);
}

function userData(options: { configPath: string; config: string; command: string; etcdCa?: { cert: string; key: string } }): string {
  return `${HEADER}
write_files:
${etcdCaFiles(options.etcdCa)}
-   path: ${options.configPath}
    owner: root:root
    permissions: '0640'
    content: |
${indent(options.config, 6)}
-   path: /run/cluster-api/placeholder
    owner: root:root
    permissions: '0640'
    content: "placeholder"
runcmd:
  - '${options.command} && ${SENTINEL}'
`;
}

/** The kubelet arguments a test gives: labels (`--node-labels`) and a providerID (`--provider-id`). */
interface KubeletArguments {
  nodeLabels?: string;
  providerID?: string;
}

/** The Node named after the meta_data's local hostname, as CAPM3's templates do; kubelet arguments as kubeadm v1beta4's list. */
function nodeRegistration(kubelet: KubeletArguments): string {
  const args = [['node-labels', kubelet.nodeLabels], ['provider-id', kubelet.providerID]]
    .filter((arg): arg is [string, string] => arg[1] !== undefined)
    .map(([name, value]) => `  - name: ${name}\n    value: '${value}'\n`).join('');
  return `nodeRegistration:\n  name: '{{ ds.meta_data.local_hostname }}'\n${args === '' ? '' : `  kubeletExtraArgs:\n${args}`}`;
}

/** With `externalEtcd`, the ClusterConfiguration names an etcd the control plane does not run (as KCP's external etcd). */
export function kubeadmInitUserData(options: KubeletArguments & {
  clusterName: string;
  kubernetesVersion: string;
  externalEtcd?: boolean;
  etcdCa?: { cert: string; key: string };
  /** InitConfiguration's `skipPhases`. */
  skipPhases?: string[];
}): string {
  const skip = options.skipPhases === undefined ? '' : `skipPhases:\n${options.skipPhases.map((phase) => `- ${phase}\n`).join('')}`;
  const etcd = options.externalEtcd === true
    ? 'etcd:\n  external:\n    endpoints:\n    - https://127.0.0.1:2379\n    caFile: /etc/kubernetes/pki/etcd/ca.crt\n' : '';
  const config = `---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
clusterName: ${options.clusterName}
kubernetesVersion: ${options.kubernetesVersion}
controlPlaneEndpoint: 127.0.0.1:6443
${etcd}---
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
${skip}${nodeRegistration(options)}`;
  return userData({ configPath: '/run/kubeadm/kubeadm.yaml', config, command: 'kubeadm init --config /run/kubeadm/kubeadm.yaml ',
    ...(options.etcdCa === undefined ? {} : { etcdCa: options.etcdCa }) });
}

export function kubeadmJoinUserData(options: KubeletArguments & { token: string; controlPlane: boolean; apiServerBindPort?: number }): string {
  const controlPlane = options.apiServerBindPort === undefined ? 'controlPlane: {}\n'
    : `controlPlane:\n  localAPIEndpoint:\n    bindPort: ${options.apiServerBindPort}\n`;
  const config = `---
apiVersion: kubeadm.k8s.io/v1beta4
kind: JoinConfiguration
discovery:
  bootstrapToken:
    apiServerEndpoint: 127.0.0.1:6443
    caCertHashes:
    - sha256:0000
    token: ${options.token}
${options.controlPlane ? controlPlane : ''}${nodeRegistration(options)}`;
  return userData({ configPath: '/run/kubeadm/kubeadm-join-config.yaml', config, command: 'kubeadm join --config /run/kubeadm/kubeadm-join-config.yaml' });
}
