import { workloadKubeconfigSecret } from '../capi/index.ts';
import { kubernetesVersion } from '../stack/kube.ts';
import type { StackEnv } from '../stack/state.ts';

export interface SampleClusterOptions {
  env: StackEnv;
  namespace: string;
  name: string;
  /** Labels core Cluster API's manager is scoped by (`cluster.x-k8s.io/watch-filter`). */
  watchLabels: Record<string, string>;
  /** Host labels each role's machines choose from. */
  controlPlaneHostSelector: Record<string, string>;
  workerHostSelector: Record<string, string>;
  workerReplicas: number;
  /** A Metal3DataTemplate the workers render their meta and network data from (sample-data-template.ts). */
  workerDataTemplate?: string;
  /** CAPM3's nodeReuse on the workers' template: a released host is kept for the MachineDeployment's next Machine. */
  workerNodeReuse?: boolean;
  /** The MachineDeployment's rolling update (Cluster API's default is maxSurge 1, maxUnavailable 0). */
  workerRollingUpdate?: { maxSurge: number; maxUnavailable: number };
}

export interface WorkerHealthCheckOptions {
  /** How long a Node may be NotReady (or Unknown) before its Machine is unhealthy. */
  unhealthySeconds: number;
  retryLimit: number;
  /** How long one power cycle has to bring the Node back. */
  timeoutSeconds: number;
}

export const INFRA_API_VERSION = 'infrastructure.cluster.x-k8s.io/v1beta2';
const CAPI_API_VERSION = 'cluster.x-k8s.io/v1beta2';

/** The Metal3MachineTemplate every worker is cloned from; a new one with another image rolls the MachineDeployment. */
export function workerTemplate(options: { namespace: string; name: string; image: { url: string; sha256: string };
  hostSelector: Record<string, string>; dataTemplate?: string; nodeReuse?: boolean }): Record<string, unknown> {
  return {
    apiVersion: INFRA_API_VERSION, kind: 'Metal3MachineTemplate', metadata: { name: options.name, namespace: options.namespace },
    spec: { ...(options.nodeReuse ? { nodeReuse: true } : {}), template: { spec: {
      image: { url: options.image.url, checksum: options.image.sha256, checksumType: 'sha256', diskFormat: 'raw' },
      hostSelector: { matchLabels: options.hostSelector },
      // Released workers go straight back to the pool; the operator's own tests cover cleaning.
      automatedCleaningMode: 'disabled',
      ...(options.dataTemplate ? { dataTemplate: { name: options.dataTemplate } } : {}),
    } } },
  };
}

/**
 * Metal3's remediation as a user declares it: a Metal3RemediationTemplate and a
 * MachineHealthCheck over a MachineDeployment's Machines that names it in remediation.templateRef.
 * Cluster API's MachineHealthCheck starts watching the workload Nodes only in a reconcile after
 * the control plane is initialized, so it is best applied then.
 */
export function workerHealthCheckObjects(options: { namespace: string; clusterName: string; machineDeployment: string;
  watchLabels: Record<string, string>; check: WorkerHealthCheckOptions }): Record<string, unknown>[] {
  const { namespace, clusterName, check } = options;
  const template = `${options.machineDeployment}-remediation`;
  const unhealthy = (status: string) => ({ type: 'Ready', status, timeoutSeconds: check.unhealthySeconds });
  return [
    { apiVersion: INFRA_API_VERSION, kind: 'Metal3RemediationTemplate', metadata: { name: template, namespace },
      spec: { template: { spec: { strategy: { type: 'Reboot', retryLimit: check.retryLimit, timeoutSeconds: check.timeoutSeconds } } } } },
    { apiVersion: CAPI_API_VERSION, kind: 'MachineHealthCheck',
      metadata: { name: `${options.machineDeployment}-health`, namespace, labels: options.watchLabels },
      spec: { clusterName,
        selector: { matchLabels: { 'cluster.x-k8s.io/deployment-name': options.machineDeployment } },
        // No node startup timeout: provisioning a server takes as long as it takes.
        checks: { nodeStartupTimeoutSeconds: 0, unhealthyNodeConditions: [unhealthy('False'), unhealthy('Unknown')] },
        remediation: { templateRef: { apiVersion: INFRA_API_VERSION, kind: 'Metal3RemediationTemplate', name: template } } } },
  ];
}

/**
 * A workload cluster as a Metal3 user declares it, minus the bootstrap and control plane
 * providers this stack does not run: Cluster + Metal3Cluster, the `<cluster>-kubeconfig`
 * Secret a control plane provider would write (pointing at the stack's workload API server),
 * pre-rendered bootstrap data Secrets, one control-plane Machine with its Metal3Machine (what
 * KubeadmControlPlane would create), and a MachineDeployment of workers. A MachineHealthCheck is
 * applied apart (workerHealthCheckObjects) once the control plane is initialized.
 */
export function sampleClusterObjects(options: SampleClusterOptions): Record<string, unknown>[] {
  const { env, namespace, name, watchLabels } = options;
  const image = env.images[0]!;
  const clusterLabel = { 'cluster.x-k8s.io/cluster-name': name };
  const bootstrap = (secret: string, userData: string) => ({
    apiVersion: 'v1', kind: 'Secret', type: 'cluster.x-k8s.io/secret',
    metadata: { name: secret, namespace, labels: clusterLabel }, stringData: { value: userData, format: 'cloud-config' },
  });
  const controlPlaneMachine = `${name}-control-plane-0`;
  // The simulated kubelets report the stack's release, and Cluster API v1.14 counts a Machine whose
  // Node runs another version than its spec.version (none included) as not up to date, for good.
  const version = kubernetesVersion();
  return [
    { ...workloadKubeconfigSecret(env, name, namespace) },
    // Stand-ins: no kubeadm runs (the agent simulator emulates kubeadm only for the kubeadm providers' data).
    bootstrap(`${name}-control-plane-bootstrap`, '#cloud-config\nruncmd:\n  - echo control plane bootstrap data\n'),
    bootstrap(`${name}-workers-bootstrap`, '#cloud-config\nruncmd:\n  - echo worker bootstrap data\n'),
    { apiVersion: CAPI_API_VERSION, kind: 'Cluster', metadata: { name, namespace, labels: watchLabels },
      spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3Cluster', name } } },
    { apiVersion: INFRA_API_VERSION, kind: 'Metal3Cluster', metadata: { name, namespace },
      spec: { controlPlaneEndpoint: { host: '127.0.0.1', port: Number(new URL(env.workload.apiServerUrl).port) } } },
    { apiVersion: INFRA_API_VERSION, kind: 'Metal3Machine', metadata: { name: controlPlaneMachine, namespace, labels: clusterLabel },
      spec: { image: { url: image.url, checksum: image.sha256, checksumType: 'sha256', diskFormat: 'raw' },
        hostSelector: { matchLabels: options.controlPlaneHostSelector } } },
    { apiVersion: CAPI_API_VERSION, kind: 'Machine',
      metadata: { name: controlPlaneMachine, namespace, labels: { ...watchLabels, ...clusterLabel, 'cluster.x-k8s.io/control-plane': '' } },
      spec: { clusterName: name, version, bootstrap: { dataSecretName: `${name}-control-plane-bootstrap` },
        infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3Machine', name: controlPlaneMachine } } },
    workerTemplate({ namespace, name: `${name}-workers-v1`, image, hostSelector: options.workerHostSelector,
      ...(options.workerDataTemplate ? { dataTemplate: options.workerDataTemplate } : {}),
      ...(options.workerNodeReuse ? { nodeReuse: true } : {}) }),
    { apiVersion: CAPI_API_VERSION, kind: 'MachineDeployment', metadata: { name: `${name}-workers`, namespace, labels: watchLabels },
      spec: { clusterName: name, replicas: options.workerReplicas, selector: {},
        ...(options.workerRollingUpdate ? { rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: options.workerRollingUpdate } } } : {}),
        template: { metadata: { labels: watchLabels }, spec: { clusterName: name, version,
          bootstrap: { dataSecretName: `${name}-workers-bootstrap` },
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3MachineTemplate', name: `${name}-workers-v1` } } } } },
  ];
}
