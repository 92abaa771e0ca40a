import { run } from '../stack/commands.ts';
import { waitUntil, type TrackedProcess } from '../stack/processes.ts';
import type { KubectlTarget } from './crds.ts';

/**
 * Waits until the API server actually calls the new webhooks: it picks up webhook
 * configurations asynchronously, and an object created before that would be stored
 * undefaulted. A server-side dry run of a MachineDeployment shows the defaulter's label.
 */
export async function waitForWebhooksInEffect(options: {
  target: KubectlTarget;
  namespace: string;
  process: TrackedProcess;
  timeoutMs?: number;
}): Promise<void> {
  const probe = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineDeployment',
    metadata: { name: 'metal3-ts-webhook-probe', namespace: options.namespace },
    spec: {
      clusterName: 'metal3-ts-webhook-probe',
      selector: {},
      template: {
        spec: {
          clusterName: 'metal3-ts-webhook-probe',
          bootstrap: { dataSecretName: 'metal3-ts-webhook-probe' },
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'ProbeMachineTemplate', name: 'probe' },
        },
      },
    },
  };
  await waitUntil(async () => {
    const out = await run(options.target.kubectl, ['--kubeconfig', options.target.kubeconfig, 'create', '--dry-run=server',
      '-o', 'json', '-f', '-'], { component: 'cluster-api webhooks', input: JSON.stringify(probe) });
    const created = JSON.parse(out) as { metadata?: { labels?: Record<string, string> } };
    return created.metadata?.labels?.['cluster.x-k8s.io/cluster-name'] === 'metal3-ts-webhook-probe';
  }, { what: 'Cluster API webhooks in effect', timeoutMs: options.timeoutMs ?? 60_000, intervalMs: 250, process: options.process });
}
