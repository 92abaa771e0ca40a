import type { Kubectl } from '../../support/kubectl.ts';

/**
 * Cluster API objects created directly, as CAPM3's own controller tests do: no Cluster API
 * controllers run, so the test plays their part (owner references, labels, status).
 */
export class ClusterApiObjects {
  readonly #kubectl: Kubectl;
  readonly namespace: string;

  constructor(kubectl: Kubectl, namespace: string) {
    this.#kubectl = kubectl;
    this.namespace = namespace;
  }

  apply(objects: unknown[]): Promise<string> {
    return this.#kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  }

  get<T = Record<string, unknown>>(kind: string, name: string): Promise<T> {
    return this.#kubectl.json<T>(['get', kind, name, '-n', this.namespace]);
  }

  async find<T = Record<string, unknown>>(kind: string, name: string): Promise<T | undefined> {
    const result = await this.#kubectl.run(['get', kind, name, '-n', this.namespace, '-o', 'json']);
    return result.code === 0 ? (JSON.parse(result.stdout) as T) : undefined;
  }

  patch(kind: string, name: string, patch: unknown, options: { status?: boolean } = {}): Promise<string> {
    return this.#kubectl.ok(['patch', kind, name, '-n', this.namespace, '--type=merge', '-p', JSON.stringify(patch),
      ...(options.status ? ['--subresource=status'] : [])]);
  }

  /** A Cluster with its Metal3Cluster, infrastructure marked provisioned as Cluster API would. */
  async cluster(name: string, options: { infrastructureProvisioned?: boolean; cloudProviderEnabled?: boolean } = {}): Promise<{ uid: string }> {
    await this.apply([
      { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name, namespace: this.namespace },
        spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3Cluster', name } } },
    ]);
    const cluster = await this.get<{ metadata: { uid: string } }>('cluster', name);
    await this.apply([
      { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3Cluster',
        metadata: { name, namespace: this.namespace, labels: { 'cluster.x-k8s.io/cluster-name': name },
          ownerReferences: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name, uid: cluster.metadata.uid }] },
        spec: { controlPlaneEndpoint: { host: '127.0.0.1', port: 6443 }, ...(options.cloudProviderEnabled ? { cloudProviderEnabled: true } : {}) } },
    ]);
    if (options.infrastructureProvisioned !== false) {
      await this.patch('cluster', name, { status: { initialization: { infrastructureProvisioned: true } } }, { status: true });
    }
    return { uid: cluster.metadata.uid };
  }

  /** The bootstrap data Secret a bootstrap provider would render (key `value`). */
  bootstrapSecret(name: string, userData: string): Promise<string> {
    return this.apply([{ apiVersion: 'v1', kind: 'Secret', type: 'cluster.x-k8s.io/secret', metadata: { name, namespace: this.namespace },
      stringData: { value: userData, format: 'cloud-config' } }]);
  }

  /** A Machine and the Metal3Machine it owns, linked both ways as Cluster API's Machine controller does. */
  async machine(name: string, options: { cluster: string; dataSecretName?: string; m3mSpec: Record<string, unknown>;
    failureDomain?: string; annotations?: Record<string, string>; m3mLabels?: Record<string, string>; machineLabels?: Record<string, string>;
    /** Owner references of the Machine (a MachineSet's, as Cluster API's MachineSet controller writes). */
    machineOwners?: OwnerReference[];
    /** A bootstrap provider's config beside the data Secret, as Cluster API's Machine has it once that config is ready. */
    bootstrapConfig?: boolean }): Promise<void> {
    await this.apply([{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine',
      metadata: { name, namespace: this.namespace, labels: { 'cluster.x-k8s.io/cluster-name': options.cluster, ...options.machineLabels },
        ...(options.machineOwners ? { ownerReferences: options.machineOwners } : {}) },
      spec: { clusterName: options.cluster,
        // Without data yet, a bootstrap provider's config stands in (Cluster API requires one of the two).
        bootstrap: {
          ...(options.dataSecretName ? { dataSecretName: options.dataSecretName } : {}),
          ...(!options.dataSecretName || options.bootstrapConfig ? { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name } } : {}),
        },
        infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3Machine', name },
        ...(options.failureDomain ? { failureDomain: options.failureDomain } : {}) } }]);
    const machine = await this.get<{ metadata: { uid: string } }>('machine', name);
    await this.apply([{ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3Machine',
      metadata: { name, namespace: this.namespace, labels: { 'cluster.x-k8s.io/cluster-name': options.cluster, ...options.m3mLabels },
        annotations: options.annotations ?? {},
        ownerReferences: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', name, uid: machine.metadata.uid, controller: true }] },
      spec: options.m3mSpec }]);
  }
}

export interface OwnerReference { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }

/**
 * A MachineDeployment and the MachineSet it owns, with only the fields their CRDs require
 * (no Cluster API controller acts on them here); returns the owner reference a Machine of
 * that MachineSet carries.
 */
export async function machineDeployment(objects: ClusterApiObjects, name: string, options: {
  cluster: string; template: string; dataSecretName: string;
}): Promise<OwnerReference> {
  const selector = { matchLabels: { 'cluster.x-k8s.io/deployment-name': name } };
  const spec = {
    clusterName: options.cluster,
    selector,
    template: { metadata: { labels: selector.matchLabels }, spec: {
      clusterName: options.cluster,
      bootstrap: { dataSecretName: options.dataSecretName },
      infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3MachineTemplate', name: options.template },
    } },
  };
  const labels = { 'cluster.x-k8s.io/cluster-name': options.cluster };
  await objects.apply([{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name, namespace: objects.namespace, labels }, spec }]);
  const deployment = await objects.get<{ metadata: { uid: string } }>('machinedeployment', name);
  const setName = `${name}-set`;
  await objects.apply([{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineSet',
    metadata: { name: setName, namespace: objects.namespace, labels: { ...labels, ...selector.matchLabels },
      ownerReferences: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', name, uid: deployment.metadata.uid, controller: true }] },
    spec }]);
  const machineSet = await objects.get<{ metadata: { uid: string } }>('machineset', setName);
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineSet', name: setName, uid: machineSet.metadata.uid, controller: true };
}

/**
 * A BareMetalHost whose status plays BMO's part (no operator runs in these tests): the state
 * and hardware a real host would report.
 */
export async function fakeHost(objects: ClusterApiObjects, name: string, options: {
  state?: string; labels?: Record<string, string>; annotations?: Record<string, string>; hardware?: Record<string, unknown>;
  errorMessage?: string;
}): Promise<void> {
  await objects.apply([
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-bmc`, namespace: objects.namespace }, stringData: { username: 'admin', password: 'secret' } },
    { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
      metadata: { name, namespace: objects.namespace, labels: options.labels ?? {}, annotations: options.annotations ?? {} },
      spec: { online: false, bootMACAddress: '00:5a:91:00:00:01', bmc: { address: 'redfish+http://127.0.0.1:1/redfish/v1/Systems/x', credentialsName: `${name}-bmc` } } },
  ]);
  await setHostState(objects, name, options.state ?? 'available', options);
}

/** Plays BMO: moves a host to `state`. */
export function setHostState(objects: ClusterApiObjects, name: string, state: string,
  options: { hardware?: Record<string, unknown>; errorMessage?: string; poweredOn?: boolean } = {}): Promise<string> {
  return objects.patch('bmh', name, { status: {
    operationalStatus: options.errorMessage ? 'error' : 'OK', errorMessage: options.errorMessage ?? '', errorCount: 0, provisioningFailCount: 0,
    poweredOn: options.poweredOn ?? state === 'provisioned',
    provisioning: { state, ID: `node-${name}` },
    ...(options.hardware ? { hardware: options.hardware } : {}),
  } }, { status: true });
}
