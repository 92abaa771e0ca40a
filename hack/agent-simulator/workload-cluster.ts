import { Agent, request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { loadKubeconfig, type KubeEndpoint } from './kubeconfig.ts';
import type { SimulatedKubeletServer } from './kubelet/kubelet-server.ts';
import type { PodPortTarget } from './kubelet/port-forward.ts';
import type { Logger } from './log.ts';
import type { BootstrapToken, ControlPlanePods } from './kubeadm.ts';
import type { NodeIdentity } from './node-identity.ts';

const FIELD_MANAGER = 'metal3-agent-simulator';
const REQUEST_TIMEOUT_MS = 15_000;

/** What the installed OS does in the workload cluster (an interface so unit tests can stand in for it). */
export interface WorkloadNodes {
  /** Registers the Node; resolves with the providerID it gave a Node it created (`--provider-id`), else null. */
  register(node: NodeRegistration): Promise<string | null>;
  /** What `kubeadm init` uploads: the ClusterConfiguration in kube-system's `kubeadm-config` ConfigMap. */
  uploadKubeadmConfig(clusterConfiguration: string): Promise<void>;
  /** What `kubeadm init`'s kube-proxy addon applies: kube-system's `kube-proxy` DaemonSet, its image tagged with the cluster's version. */
  deployKubeProxy(image: KubeProxyImage): Promise<void>;
  /** Whether `kubeadm join` would be let in with this token: its `bootstrap-token-<id>` Secret exists, matches and has not expired. */
  bootstrapTokenValid(token: BootstrapToken): Promise<boolean>;
  /** The ClusterConfiguration in kube-system's `kubeadm-config`, which `kubeadm join --control-plane` reads; undefined when there is none. */
  readClusterConfiguration(): Promise<string | undefined>;
  /** The client URLs the cluster's etcd Pods advertise (kubeadm's annotation), which `kubeadm join --control-plane` adds its member through. */
  etcdClientUrls(): Promise<string[]>;
  /** Resolves when the Node and the Pods bound to it are gone, also when they were never there. */
  delete(name: string): Promise<void>;
  close(): void;
}

export interface KubeProxyImage {
  imageRepository: string;
  /** The ClusterConfiguration's; without one the workload API server's, as the version kubeadm would default to. */
  kubernetesVersion: string | undefined;
}

export interface NodeRegistration extends NodeIdentity {
  /** SMBIOS system UUID, as kubelet reports it in nodeInfo. */
  systemUuid: string;
  architecture: string;
  /**
   * kubeadm made it a control plane node: labelled and tainted `node-role.kubernetes.io/control-plane`,
   * its kubelet running these static pods and mirroring them as Pods in kube-system.
   */
  controlPlane?: ControlPlanePods;
  /** The version kubeadm set the node up for; without one the kubelet is as new as the workload API server. */
  kubeletVersion?: string;
  /** `nodeInfo.osImage`: what the installed OS is (osImageOf). */
  osImage?: string;
}

const CONTROL_PLANE_ROLE = 'node-role.kubernetes.io/control-plane';
/** Where kubeadm records an etcd member's client URL on its static Pod. */
const ETCD_CLIENT_URLS_ANNOTATION = 'kubeadm.kubernetes.io/etcd.advertise-client-urls';
/** The client port kubeadm's etcd listens on, which KCP forwards to. */
const ETCD_CLIENT_PORT = 2379;

const podList = z.object({
  items: z.array(z.object({ metadata: z.object({ annotations: z.record(z.string(), z.string()).optional() }).loose() }).loose()),
}).loose();

const serverVersion = z.object({ gitVersion: z.string() }).loose();

const kubeadmConfigMap = z.object({ data: z.object({ ClusterConfiguration: z.string().optional() }).loose().optional() }).loose();

const bootstrapTokenSecret = z.object({
  data: z.object({
    'token-secret': z.string(),
    'usage-bootstrap-authentication': z.string().optional(),
    expiration: z.string().optional(),
  }).loose(),
}).loose();

const decode = (value: string | undefined) => (value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8'));

class HttpError extends Error {
  readonly status: number;

  constructor(status: number, body: string, what: string) {
    super(`${what}: HTTP ${status} ${body.slice(0, 300)}`);
    this.status = status;
  }
}

/** Go's GOARCH for a kernel machine name, as kubelet reports it. */
function goArch(machine: string): string {
  return ({ x86_64: 'amd64', aarch64: 'arm64', ppc64le: 'ppc64le', s390x: 's390x' } as Record<string, string>)[machine] ?? machine;
}

/**
 * Plain HTTPS to the workload API server with the kubeconfig's client certificate, over one
 * kept-alive connection. A registration is two server-side applies (the Node, then its
 * status), which create or update alike (a kubelet with --provider-id creates the Node instead
 * of the first), and two more per static pod of a control plane node; a
 * deletion is one DELETE for the Node and one for its Pods.
 */
export class WorkloadCluster implements WorkloadNodes {
  readonly #kubeconfigPath: string;
  readonly #attempts: number;
  readonly #retryIntervalMs: number;
  readonly #logger: Logger;
  readonly #kubelet: SimulatedKubeletServer | undefined;
  #connection: { endpoint: KubeEndpoint; agent: Agent } | undefined;
  /** The workload API server's version, read once. */
  #apiServerVersion: string | undefined;

  constructor(options: {
    kubeconfigPath: string;
    attempts: number;
    retryIntervalMs: number;
    logger: Logger;
    /** Where the Nodes' kubelets serve port-forwards; without it a Node advertises no kubelet port. */
    kubelet?: SimulatedKubeletServer;
  }) {
    this.#kubeconfigPath = options.kubeconfigPath;
    this.#kubelet = options.kubelet;
    this.#attempts = options.attempts;
    this.#retryIntervalMs = options.retryIntervalMs;
    this.#logger = options.logger;
  }

  /** Read on first use: the workload cluster may come up after the simulator, and a bad file must not stop it. */
  #connect(): { endpoint: KubeEndpoint; agent: Agent } {
    if (this.#connection !== undefined) return this.#connection;
    const endpoint = loadKubeconfig(this.#kubeconfigPath);
    const agent = new Agent({
      keepAlive: true,
      maxSockets: 2,
      ...(endpoint.ca ? { ca: endpoint.ca } : {}),
      ...(endpoint.cert ? { cert: endpoint.cert } : {}),
      ...(endpoint.key ? { key: endpoint.key } : {}),
    });
    this.#connection = { endpoint, agent };
    return this.#connection;
  }

  async register(node: NodeRegistration): Promise<string | null> {
    const path = `/api/v1/nodes/${encodeURIComponent(node.name)}`;
    const query = `?fieldManager=${FIELD_MANAGER}&force=true`;
    const labels: Record<string, string> = { ...node.labels, 'kubernetes.io/hostname': node.name, 'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': goArch(node.architecture) };
    if (node.controlPlane !== undefined) labels[CONTROL_PLANE_ROLE] = '';
    const taints = node.controlPlane !== undefined ? { taints: [{ key: CONTROL_PLANE_ROLE, effect: 'NoSchedule' }] } : undefined;
    // The kubelet sets its --provider-id only when it creates the Node: one already there keeps
    // the providerID it has (the API server allows no change once set), as the kubelet leaves it.
    const created = node.providerID !== null && await this.#create(`/api/v1/nodes?fieldManager=${FIELD_MANAGER}`, {
      apiVersion: 'v1', kind: 'Node', metadata: { name: node.name, labels }, spec: { ...taints, providerID: node.providerID } }, `create Node ${node.name}`);
    if (!created) {
      await this.#send('PATCH', `${path}${query}`, { apiVersion: 'v1', kind: 'Node', metadata: { name: node.name, labels }, ...(taints ? { spec: taints } : {}) },
        `apply Node ${node.name}`);
    }
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const addresses = [{ type: 'InternalIP', address: node.internalIp }, { type: 'Hostname', address: node.name }];
    await this.#send('PATCH', `${path}/status${query}`, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: node.name },
      status: {
        // What kubelet reports on a healthy node; Cluster API needs the pressure conditions False for a Machine to be Ready.
        conditions: [
          { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
          { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
          { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
          { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
        ].map((condition) => ({ ...condition, lastHeartbeatTime: now, lastTransitionTime: now })),
        addresses,
        ...(this.#kubelet === undefined ? {} : { daemonEndpoints: { kubeletEndpoint: { Port: this.#kubelet.port } } }),
        nodeInfo: { systemUUID: node.systemUuid, operatingSystem: 'linux', architecture: goArch(node.architecture),
          ...(node.osImage === undefined ? {} : { osImage: node.osImage }),
          kubeletVersion: node.kubeletVersion ?? await this.#readApiServerVersion() },
      },
    }, `apply Node ${node.name} status`);
    if (node.controlPlane !== undefined) await this.#mirrorStaticPods(node.name, node.controlPlane, now);
    return created ? node.providerID : null;
  }

  /**
   * The Pods a kubelet makes for its static pods (what Cluster API's control plane provider reads
   * as each component's health): `<component>-<node>` in kube-system, bound to the Node, Running
   * and Ready. Nothing runs behind them.
   */
  async #mirrorStaticPods(node: string, pods: ControlPlanePods, now: string): Promise<void> {
    for (const component of pods.components) {
      const name = `${component}-${node}`;
      const path = `/api/v1/namespaces/kube-system/pods/${encodeURIComponent(name)}`;
      const query = `?fieldManager=${FIELD_MANAGER}&force=true`;
      const tag = component === 'etcd' || pods.kubernetesVersion === undefined ? '' : `:${pods.kubernetesVersion}`;
      const image = `${pods.imageRepository}/${component}${tag}`;
      const metadata = { name, namespace: 'kube-system', labels: { component, tier: 'control-plane' },
        annotations: { 'kubernetes.io/config.mirror': `${component}-${node}`, 'kubernetes.io/config.source': 'file',
          ...(component === 'etcd' && pods.etcdClientUrl !== undefined ? { [ETCD_CLIENT_URLS_ANNOTATION]: pods.etcdClientUrl } : {}) } };
      await this.#send('PATCH', `${path}${query}`, { apiVersion: 'v1', kind: 'Pod', metadata,
        spec: { nodeName: node, hostNetwork: true, containers: [{ name: component, image }] } },
      `apply Pod kube-system/${name}`);
      const conditions = ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready']
        .map((type) => ({ type, status: 'True', lastTransitionTime: now }));
      await this.#send('PATCH', `${path}/status${query}`, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'kube-system' },
        status: { phase: 'Running', startTime: now, conditions,
          containerStatuses: [{ name: component, ready: true, started: true, restartCount: 0, image,
            imageID: '', state: { running: { startedAt: now } } }] } },
      `apply Pod kube-system/${name} status`);
      this.#kubelet?.servePod({ namespace: 'kube-system', name, node }, (port) => this.#staticPodPort(component, pods, port));
    }
  }

  /**
   * What answers on a static pod's port (its host network is this machine's loopback): the API
   * server's bind port leads to the workload API server, which plays every control plane node's;
   * etcd's client port to the node's own etcd member.
   */
  #staticPodPort(component: string, pods: ControlPlanePods, port: number): PodPortTarget {
    const at = (url: string) => {
      const parsed = new URL(url);
      return { host: parsed.hostname, port: Number(parsed.port || 443) };
    };
    if (component === 'kube-apiserver' && port === pods.apiServerBindPort) return at(this.#connect().endpoint.server);
    if (component === 'etcd' && port === ETCD_CLIENT_PORT && pods.etcdClientUrl !== undefined) return at(pods.etcdClientUrl);
    return { refused: `dial tcp 127.0.0.1:${port}: connect: connection refused` };
  }

  async #readApiServerVersion(): Promise<string> {
    this.#apiServerVersion ??= serverVersion.parse(JSON.parse(await this.#send('GET', '/version', undefined, 'read the API server version'))).gitVersion;
    return this.#apiServerVersion;
  }

  async readClusterConfiguration(): Promise<string | undefined> {
    let body: string;
    try {
      body = await this.#send('GET', '/api/v1/namespaces/kube-system/configmaps/kubeadm-config', undefined, 'read ConfigMap kube-system/kubeadm-config');
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return undefined;
      throw error;
    }
    return kubeadmConfigMap.parse(JSON.parse(body)).data?.ClusterConfiguration;
  }

  async etcdClientUrls(): Promise<string[]> {
    const selector = encodeURIComponent('component=etcd');
    const body = await this.#send('GET', `/api/v1/namespaces/kube-system/pods?labelSelector=${selector}`, undefined, 'list etcd Pods');
    return podList.parse(JSON.parse(body)).items
      .flatMap((pod) => (pod.metadata.annotations?.[ETCD_CLIENT_URLS_ANNOTATION] ?? '').split(','))
      .map((url) => url.trim()).filter((url) => url !== '');
  }

  async uploadKubeadmConfig(clusterConfiguration: string): Promise<void> {
    await this.#send('PATCH', `/api/v1/namespaces/kube-system/configmaps/kubeadm-config?fieldManager=${FIELD_MANAGER}&force=true`,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kubeadm-config', namespace: 'kube-system' },
        data: { ClusterConfiguration: clusterConfiguration } }, 'apply ConfigMap kube-system/kubeadm-config');
  }

  /**
   * The DaemonSet as kubeadm's addon writes it, reduced to what Cluster API's control plane
   * provider reads and rewrites on an upgrade (the `kube-proxy` container's image tag). This
   * cluster runs no DaemonSet controller, so no Pods follow.
   */
  async deployKubeProxy(image: KubeProxyImage): Promise<void> {
    const version = image.kubernetesVersion ?? await this.#readApiServerVersion();
    const labels = { 'k8s-app': 'kube-proxy' };
    await this.#send('PATCH', `/apis/apps/v1/namespaces/kube-system/daemonsets/kube-proxy?fieldManager=${FIELD_MANAGER}&force=true`, {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'kube-proxy', namespace: 'kube-system', labels },
      spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { hostNetwork: true, priorityClassName: 'system-node-critical',
        containers: [{ name: 'kube-proxy', image: `${image.imageRepository}/kube-proxy:${version.replaceAll('+', '_')}`,
          command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'] }] } } },
    }, 'apply DaemonSet kube-system/kube-proxy');
  }

  async bootstrapTokenValid(token: BootstrapToken): Promise<boolean> {
    let body: string;
    try {
      body = await this.#send('GET', `/api/v1/namespaces/kube-system/secrets/bootstrap-token-${token.id}`, undefined,
        `read bootstrap token ${token.id}`);
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return false;
      throw error;
    }
    const parsed = bootstrapTokenSecret.safeParse(JSON.parse(body));
    if (!parsed.success) return false;
    const { data } = parsed.data;
    const expiration = decode(data.expiration);
    return decode(data['token-secret']) === token.secret && decode(data['usage-bootstrap-authentication']) === 'true'
      && (expiration === undefined || Date.parse(expiration) > Date.now());
  }

  async delete(name: string): Promise<void> {
    this.#kubelet?.forgetNode(name);
    try {
      await this.#send('DELETE', `/api/v1/nodes/${encodeURIComponent(name)}`, undefined, `delete Node ${name}`);
    } catch (error) {
      if (!(error instanceof HttpError && error.status === 404)) throw error;
    }
    // Kubernetes' pod garbage collector deletes the Pods of a deleted Node (here only a control
    // plane's mirror Pods, all in kube-system); this cluster runs no collector. At once: no
    // kubelet is left to confirm a graceful deletion.
    const selector = encodeURIComponent(`spec.nodeName=${name}`);
    await this.#send('DELETE', `/api/v1/namespaces/kube-system/pods?fieldSelector=${selector}&gracePeriodSeconds=0`, undefined,
      `delete the Pods of Node ${name}`);
  }

  close(): void {
    this.#connection?.agent.destroy();
  }

  /** POSTs a new object: false when one of that name is already there. */
  async #create(path: string, body: unknown, what: string): Promise<boolean> {
    try {
      await this.#send('POST', path, body, what);
      return true;
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) return false;
      throw error;
    }
  }

  /** Retries network errors, 429 and 5xx a bounded number of times; other answers are final. */
  async #send(method: string, path: string, body: unknown, what: string): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#once(method, path, body, what);
      } catch (error) {
        const retriable = !(error instanceof HttpError) || error.status === 429 || error.status >= 500;
        if (!retriable || attempt >= this.#attempts) throw error;
        const pauseMs = this.#retryIntervalMs * 2 ** (attempt - 1);
        this.#logger.warn('workload API request failed, retrying', { what, attempt, pauseMs, error: (error as Error).message });
        await sleep(pauseMs);
      }
    }
  }

  #once(method: string, path: string, body: unknown, what: string): Promise<string> {
    const { endpoint, agent } = this.#connect();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = { Accept: 'application/json' };
    if (payload !== undefined) {
      // Every PATCH here is a server-side apply; a POST creates.
      headers['Content-Type'] = method === 'PATCH' ? 'application/apply-patch+yaml' : 'application/json';
      headers['Content-Length'] = Buffer.byteLength(payload);
    }
    if (endpoint.token !== undefined) headers.Authorization = `Bearer ${endpoint.token}`;
    return new Promise((resolve, reject) => {
      const request = httpsRequest(`${endpoint.server}${path}`, { method, headers, agent, timeout: REQUEST_TIMEOUT_MS },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString('utf8');
            if (status >= 200 && status < 300) resolve(text);
            else reject(new HttpError(status, text, what));
          });
        });
      request.on('timeout', () => request.destroy(new Error(`${what}: no answer in ${REQUEST_TIMEOUT_MS} ms`)));
      request.on('error', reject);
      request.end(payload);
    });
  }
}
