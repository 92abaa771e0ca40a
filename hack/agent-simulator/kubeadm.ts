import { parseAllDocuments, stringify } from 'yaml';
import { parseCloudConfig, type CloudConfig } from './cloud-init-hostname.ts';
import type { EtcdCa } from './etcd/etcd-certificates.ts';
import { isLabelKey, isLabelValue, isNodeName, isReservedForKubelet } from './kube-names.ts';

/** A bootstrap token as kubeadm writes it: `<id>.<secret>`. */
export interface BootstrapToken {
  id: string;
  secret: string;
}

/**
 * The kubeadm step cloud-init runs on first boot, read from Cluster API's kubeadm bootstrap data
 * (a runcmd `kubeadm init|join --config <file>` and that file among write_files).
 */
export type KubeadmStep =
  | { command: 'init'; controlPlane: true; clusterConfiguration: string; apiServerBindPort: number; kubelet: KubeletRegistration; etcdCa?: EtcdCa;
    /** kubeadm's kube-proxy addon phase runs: neither skipped (`skipPhases`) nor disabled (`proxy.disabled`). */
    kubeProxy: boolean }
  | { command: 'join'; controlPlane: boolean; token: BootstrapToken | undefined; apiServerBindPort: number; kubelet: KubeletRegistration; etcdCa?: EtcdCa }
  /** The user data runs kubeadm, but its config cannot be read: kubeadm would stop at once. */
  | { command: 'init' | 'join'; controlPlane: boolean; invalid: string };

/** What kubeadm sets up the node's kubelet with, from the config's `nodeRegistration`. */
export interface KubeletRegistration {
  /** `nodeRegistration.name`: the Node's name (`--hostname-override`); without it the hostname is. */
  name: string | undefined;
  /** `--node-labels` from `nodeRegistration.kubeletExtraArgs`. */
  labels: Record<string, string>;
  /** `--provider-id` from `nodeRegistration.kubeletExtraArgs`: the kubelet creates its Node with this `spec.providerID`. */
  providerID: string | undefined;
}

/** Cluster API's kubeadm bootstrap data always runs kubeadm with `--config`; nothing else is emulated. */
const KUBEADM_COMMAND = /\bkubeadm\s+(init|join)\b.*?\s--config[ =](\S+)/;
const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;

function commandLine(entry: string | string[]): string {
  return typeof entry === 'string' ? entry : entry.join(' ');
}

function fileContent(config: CloudConfig, path: string): string | undefined {
  const file = config.write_files?.find((entry) => entry.path === path);
  if (file === undefined) return undefined;
  return file.encoding === 'b64' || file.encoding === 'base64' ? Buffer.from(file.content, 'base64').toString('utf8') : file.content;
}

function documentsByKind(text: string): Map<string, Record<string, unknown>> {
  const byKind = new Map<string, Record<string, unknown>>();
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) throw new Error(document.errors[0]!.message);
    const value = document.toJS() as unknown;
    if (value !== null && typeof value === 'object' && typeof (value as { kind?: unknown }).kind === 'string') {
      byKind.set((value as { kind: string }).kind, value as Record<string, unknown>);
    }
  }
  return byKind;
}

function joinToken(join: Record<string, unknown>): BootstrapToken | undefined {
  const discovery = join.discovery as { bootstrapToken?: { token?: unknown } } | undefined;
  const match = typeof discovery?.bootstrapToken?.token === 'string' ? TOKEN.exec(discovery.bootstrapToken.token) : null;
  return match ? { id: match[1]!, secret: match[2]! } : undefined;
}

/** The init phases whose skipping leaves the kube-proxy addon out: the addon phase, all its parts, or kube-proxy's. */
const KUBE_PROXY_PHASES = new Set(['addon', 'addon/all', 'addon/kube-proxy']);

function deploysKubeProxy(init: Record<string, unknown>, clusterConfiguration: Record<string, unknown>): boolean {
  const skipped = Array.isArray(init.skipPhases) && init.skipPhases.some((phase) => typeof phase === 'string' && KUBE_PROXY_PHASES.has(phase));
  const disabled = (clusterConfiguration.proxy as { disabled?: unknown } | undefined)?.disabled === true;
  return !skipped && !disabled;
}

/** kubeadm's default for `localAPIEndpoint.bindPort`: where a control plane node's API server listens. */
const DEFAULT_API_SERVER_BIND_PORT = 6443;

function bindPort(localApiEndpoint: unknown): number {
  const port = (localApiEndpoint as { bindPort?: unknown } | undefined)?.bindPort;
  return typeof port === 'number' && Number.isInteger(port) && port > 0 && port <= 65535 ? port : DEFAULT_API_SERVER_BIND_PORT;
}

/** Where Cluster API's kubeadm bootstrap data puts the cluster's etcd CA on a control plane node. */
const ETCD_CA_CERT = '/etc/kubernetes/pki/etcd/ca.crt';
const ETCD_CA_KEY = '/etc/kubernetes/pki/etcd/ca.key';

function etcdCa(config: CloudConfig): { etcdCa?: EtcdCa } {
  const cert = fileContent(config, ETCD_CA_CERT);
  const key = fileContent(config, ETCD_CA_KEY);
  return cert !== undefined && key !== undefined ? { etcdCa: { cert, key } } : {};
}

/** `kubeletExtraArgs` as kubeadm v1beta4 writes it (a list of name/value) or v1beta3 (a map). */
function kubeletArgs(extraArgs: unknown): [string, string][] {
  if (Array.isArray(extraArgs)) {
    return extraArgs.flatMap((arg: { name?: unknown; value?: unknown }) =>
      (typeof arg?.name === 'string' ? [[arg.name, String(arg.value ?? '')] as [string, string]] : []));
  }
  if (extraArgs !== null && typeof extraArgs === 'object') return Object.entries(extraArgs).map(([name, value]) => [name, String(value)]);
  return [];
}

/** The Node name, labels and providerID kubeadm gives the kubelet; a message where the kubelet would refuse them (it would never register). */
function kubeletRegistration(configuration: Record<string, unknown>): KubeletRegistration | { invalid: string } {
  const registration = (configuration.nodeRegistration ?? {}) as { name?: unknown; kubeletExtraArgs?: unknown };
  const name = typeof registration.name === 'string' && registration.name !== '' ? registration.name : undefined;
  if (name !== undefined && !isNodeName(name)) return { invalid: `nodeRegistration.name "${name}" is not a valid Node name (a lowercase RFC 1123 subdomain)` };
  const labels: Record<string, string> = {};
  let providerID: string | undefined;
  for (const [argument, value] of kubeletArgs(registration.kubeletExtraArgs)) {
    if (argument === 'provider-id') providerID = value === '' ? undefined : value;
    if (argument !== 'node-labels') continue;
    for (const label of value.split(',').filter((entry) => entry !== '')) {
      const [key = '', labelValue = '', ...rest] = label.split('=');
      if (rest.length > 0 || !isLabelKey(key) || !isLabelValue(labelValue)) return { invalid: `kubelet --node-labels: "${label}" is not a valid label` };
      labels[key] = labelValue;
    }
  }
  const reserved = Object.keys(labels).filter(isReservedForKubelet).sort();
  if (reserved.length > 0) return { invalid: `kubelet --node-labels: unknown 'kubernetes.io' or 'k8s.io' labels ${reserved.join(', ')}: a kubelet may not set them` };
  return { name, labels, providerID };
}

/** What kubeadm the user data runs with a config file; undefined when it runs none (any other OS image or bootstrap data). */
export function kubeadmStep(userData: string | undefined): KubeadmStep | undefined {
  const config = parseCloudConfig(userData);
  const match = (config?.runcmd ?? []).map(commandLine).map((line) => KUBEADM_COMMAND.exec(line)).find((found) => found !== null);
  if (config === undefined || match === undefined) return undefined;
  const command = match[1] as 'init' | 'join';
  const configPath = match[2]!;
  const text = fileContent(config, configPath);
  if (text === undefined) return { command, controlPlane: command === 'init', invalid: `no kubeadm config file ${configPath}` };
  let documents: Map<string, Record<string, unknown>>;
  try {
    documents = documentsByKind(text);
  } catch (error) {
    return { command, controlPlane: command === 'init', invalid: `${configPath}: ${(error as Error).message}` };
  }
  if (command === 'init') {
    const clusterConfiguration = documents.get('ClusterConfiguration');
    if (clusterConfiguration === undefined) return { command, controlPlane: true, invalid: `${configPath} has no ClusterConfiguration` };
    const init = documents.get('InitConfiguration') ?? {};
    const kubelet = kubeletRegistration(init);
    if ('invalid' in kubelet) return { command, controlPlane: true, invalid: kubelet.invalid };
    return { command, controlPlane: true, clusterConfiguration: stringify(clusterConfiguration),
      apiServerBindPort: bindPort(init.localAPIEndpoint), kubelet, kubeProxy: deploysKubeProxy(init, clusterConfiguration), ...etcdCa(config) };
  }
  const join = documents.get('JoinConfiguration');
  if (join === undefined) return { command, controlPlane: false, invalid: `${configPath} has no JoinConfiguration` };
  const controlPlane = join.controlPlane as { localAPIEndpoint?: unknown } | null | undefined;
  const isControlPlane = controlPlane !== undefined && controlPlane !== null;
  const kubelet = kubeletRegistration(join);
  if ('invalid' in kubelet) return { command, controlPlane: isControlPlane, invalid: kubelet.invalid };
  return { command, controlPlane: isControlPlane, token: joinToken(join), apiServerBindPort: bindPort(controlPlane?.localAPIEndpoint),
    kubelet, ...(isControlPlane ? etcdCa(config) : {}) };
}

/** The static pods kubeadm writes to a control plane node's manifests directory, which its kubelet runs and mirrors. */
export interface ControlPlanePods {
  /** kube-apiserver, kube-controller-manager, kube-scheduler, and etcd unless the cluster's etcd is external. */
  components: string[];
  imageRepository: string;
  kubernetesVersion: string | undefined;
  /** The port the node's kube-apiserver listens on (its `localAPIEndpoint.bindPort`). */
  apiServerBindPort: number;
  /** The client URL of the etcd member this node runs (stacked etcd), when one could be started. */
  etcdClientUrl?: string;
}

const CONTROL_PLANE_COMPONENTS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];

/**
 * What a control plane node runs, from the ClusterConfiguration kubeadm used (`init`'s own, or
 * the cluster's kubeadm-config that `join --control-plane` reads).
 */
export function controlPlanePods(clusterConfiguration: string, options: { apiServerBindPort: number }): ControlPlanePods {
  const parsed = clusterConfigurationOf(clusterConfiguration);
  const etcd = parsed.etcd as { external?: unknown } | undefined;
  const externalEtcd = etcd?.external !== undefined && etcd.external !== null;
  return {
    components: externalEtcd ? CONTROL_PLANE_COMPONENTS : [...CONTROL_PLANE_COMPONENTS, 'etcd'],
    imageRepository: typeof parsed.imageRepository === 'string' && parsed.imageRepository !== '' ? parsed.imageRepository : 'registry.k8s.io',
    kubernetesVersion: versionIn(parsed),
    apiServerBindPort: options.apiServerBindPort,
  };
}

const clusterConfigurationOf = (documents: string) => documentsByKind(documents).get('ClusterConfiguration') ?? {};
const versionIn = ({ kubernetesVersion }: Record<string, unknown>) => (typeof kubernetesVersion === 'string' ? kubernetesVersion : undefined);

/** The Kubernetes version a ClusterConfiguration names: what kubeadm sets up, and the kubelet the node image carries for it. */
export function kubernetesVersionOf(clusterConfiguration: string): string | undefined {
  return versionIn(clusterConfigurationOf(clusterConfiguration));
}
