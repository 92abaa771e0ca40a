import { run } from '../stack/commands.ts';
import { waitUntil, type TrackedProcess } from '../stack/processes.ts';
import type { ClusterApiComponent } from './build.ts';
import type { KubectlTarget } from './crds.ts';

const PROBE = 'metal3-ts-webhook-probe';

/**
 * An object each manager's webhooks visibly act on in a server-side dry run: what a defaulter
 * sets, or what only its validator refuses. `inEffect` reads the dry run's output (the created
 * object) or, for a refusal, kubectl's error.
 */
const PROBES: Record<ClusterApiComponent, { object: (namespace: string) => Record<string, unknown>; inEffect: (output: string) => boolean }> = {
  // The MachineDeployment defaulter adds the cluster-name label.
  core: {
    object: (namespace) => ({
      apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: PROBE, namespace },
      spec: { clusterName: PROBE, selector: {}, template: { spec: { clusterName: PROBE, bootstrap: { dataSecretName: PROBE },
        infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'ProbeMachineTemplate', name: 'probe' } } } },
    }),
    inEffect: (output) => (JSON.parse(output) as { metadata?: { labels?: Record<string, string> } })
      .metadata?.labels?.['cluster.x-k8s.io/cluster-name'] === PROBE,
  },
  // The KubeadmControlPlane defaulter prefixes the version with `v`.
  'kubeadm-control-plane': {
    object: (namespace) => ({
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlane', metadata: { name: PROBE, namespace },
      spec: { version: '1.35.0', machineTemplate: { spec: { infrastructureRef: {
        apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'ProbeMachineTemplate', name: 'probe' } } } },
    }),
    inEffect: (output) => (JSON.parse(output) as { spec?: { version?: string } }).spec?.version === 'v1.35.0',
  },
  // The KubeadmConfig validator refuses the Ignition format unless its feature gate is on.
  'kubeadm-bootstrap': {
    object: (namespace) => ({
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfig', metadata: { name: PROBE, namespace },
      spec: { format: 'ignition' },
    }),
    inEffect: (output) => output.includes('KubeadmBootstrapFormatIgnition'),
  },
};

/**
 * Waits until the API server actually calls a manager's new webhooks: it picks up webhook
 * configurations asynchronously, and an object written before that would be stored
 * undefaulted or unvalidated.
 */
export async function waitForWebhooksInEffect(options: {
  component: ClusterApiComponent;
  target: KubectlTarget;
  namespace: string;
  process: TrackedProcess;
  timeoutMs?: number;
}): Promise<void> {
  const probe = PROBES[options.component];
  await waitUntil(async () => {
    const output = await run(options.target.kubectl, ['--kubeconfig', options.target.kubeconfig, 'create', '--dry-run=server',
      '-o', 'json', '-f', '-'], { component: 'cluster-api webhooks', input: JSON.stringify(probe.object(options.namespace)) })
      .catch((error: Error) => error.message);
    try {
      return probe.inEffect(output);
    } catch {
      return false;
    }
  }, { what: `Cluster API ${options.component} webhooks in effect`, timeoutMs: options.timeoutMs ?? 60_000, intervalMs: 250, process: options.process });
}
