import type { KubeObject, KubeRateLimit, ResourceClient } from '../../operator/runtime/index.ts';
import { KubeClient, KubeConfig, createResourceClient, isNotFound } from '../../operator/runtime/index.ts';
import { NodeResource, PodResource, VolumeAttachmentResource } from '../api/index.ts';

export interface WorkloadClusterRef {
  namespace: string;
  clusterName: string;
}

export type NodeClientResult = { kind: 'ready'; nodes: ResourceClient<KubeObject> } | { kind: 'unavailable'; why: string };

/** A workload cluster's clients for what the provider reads and writes there. */
export interface WorkloadClients {
  nodes: ResourceClient<KubeObject>;
  /** Listed across namespaces by `spec.nodeName`, to see a Node's terminating pods. */
  pods: ResourceClient<KubeObject>;
  volumeAttachments: ResourceClient<KubeObject>;
}

export type WorkloadClientsResult = ({ kind: 'ready' } & WorkloadClients) | { kind: 'unavailable'; why: string };

/**
 * Clients for workload clusters, from Cluster API's `<cluster>-kubeconfig` Secret (key
 * `value`). Cached per Secret resourceVersion so a rotated kubeconfig is picked up. One set per
 * process, as Cluster API's cluster cache: each cluster's client keeps to `rateLimit`.
 */
export class WorkloadClusters {
  readonly #secrets: ResourceClient<KubeObject>;
  readonly #userAgent: string;
  readonly #rateLimit: KubeRateLimit | undefined;
  readonly #cache = new Map<string, { version: string; clients: WorkloadClients }>();

  constructor(options: { secrets: ResourceClient<KubeObject>; userAgent: string; rateLimit?: KubeRateLimit }) {
    this.#secrets = options.secrets;
    this.#userAgent = options.userAgent;
    this.#rateLimit = options.rateLimit;
  }

  async nodes(ref: WorkloadClusterRef, signal?: AbortSignal): Promise<NodeClientResult> {
    const found = await this.clients(ref, signal);
    return found.kind === 'ready' ? { kind: 'ready', nodes: found.nodes } : found;
  }

  async clients(ref: WorkloadClusterRef, signal?: AbortSignal): Promise<WorkloadClientsResult> {
    const name = `${ref.clusterName}-kubeconfig`;
    let secret: KubeObject;
    try {
      secret = await this.#secrets.get({ namespace: ref.namespace, name }, signal ? { signal } : {});
    } catch (error) {
      if (isNotFound(error)) return { kind: 'unavailable', why: `Secret ${ref.namespace}/${name} with the workload cluster kubeconfig does not exist yet` };
      throw error;
    }
    const key = `${ref.namespace}/${name}`;
    const version = secret.metadata.resourceVersion ?? '';
    const cached = this.#cache.get(key);
    if (cached && cached.version === version) return { kind: 'ready', ...cached.clients };
    const encoded = (secret.data as Record<string, string> | undefined)?.value;
    if (!encoded) return { kind: 'unavailable', why: `Secret ${key} has no "value" key` };
    const kubeConfig = new KubeConfig();
    try {
      kubeConfig.loadFromString(Buffer.from(encoded, 'base64').toString('utf8'));
      if (!kubeConfig.getCurrentCluster()) throw new Error('no current cluster');
    } catch (error) {
      return { kind: 'unavailable', why: `Secret ${key} does not hold a usable kubeconfig: ${(error as Error).message}` };
    }
    const client = new KubeClient(kubeConfig, { userAgent: this.#userAgent, ...(this.#rateLimit ? { rateLimit: this.#rateLimit } : {}) });
    const options = { fieldManager: this.#userAgent };
    const clients: WorkloadClients = {
      nodes: createResourceClient(client, NodeResource, options),
      pods: createResourceClient(client, PodResource, options),
      volumeAttachments: createResourceClient(client, VolumeAttachmentResource, options),
    };
    this.#cache.set(key, { version, clients });
    return { kind: 'ready', ...clients };
  }
}
