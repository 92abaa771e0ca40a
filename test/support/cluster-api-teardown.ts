import type { Kubectl } from './kubectl.ts';
import { deleteProviderNamespace } from './provider-namespace.ts';
import { releaseNodesNamed } from './release-systems.ts';
import type { StackEnv } from './stack-env.ts';
import { waitFor } from './wait-for.ts';

const minutes = (n: number) => n * 60_000;

export interface ClusterApiTeardown {
  env: StackEnv;
  kubectl: Kubectl;
  /** Client of the stack's workload cluster, where the servers' Nodes are. */
  workload: Kubectl;
  namespace: string;
  /** Whether core Cluster API ran, so deleting the Cluster deletes its Machines. */
  clusterApiRan: boolean;
  /** Stopped in this order once the objects are gone: the provider, the operator, Cluster API. */
  processes: ({ stop(): Promise<void> } | undefined)[];
  /** Nodes the file's servers registered in the shared workload cluster. */
  nodeNames: string[];
}

/**
 * The end of a Cluster API e2e file: deleting the Cluster lets Cluster API delete the Machines
 * and the provider release the hosts; then the hosts go, the processes stop, and what an
 * interrupted run left (Ironic nodes, the namespace, Nodes) is cleared.
 */
export async function tearDownClusterApiFile(options: ClusterApiTeardown): Promise<void> {
  const { kubectl, namespace } = options;
  const empty = (kind: string) => async () =>
    ((await kubectl.run(['get', kind, '-n', namespace, '-o', 'name'])).stdout.trim() ? undefined : true);
  try {
    if (options.clusterApiRan && namespace) {
      await kubectl.run(['delete', 'clusters.cluster.x-k8s.io', '--all', '-n', namespace, '--wait=false']);
      await waitFor(empty('clusters.cluster.x-k8s.io'), { timeoutMs: minutes(4), what: 'the Cluster to be deleted' }).catch(() => undefined);
      await kubectl.run(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
      await waitFor(empty('bmh'), { timeoutMs: minutes(3), what: 'hosts deleted' }).catch(() => undefined);
    }
  } finally {
    for (const process of options.processes) await process?.stop();
    if (namespace) {
      await releaseNodesNamed(options.env, `${namespace}~`);
      await deleteProviderNamespace(kubectl, namespace);
    }
    for (const name of options.nodeNames) await options.workload.run(['delete', 'node', name, '--ignore-not-found']);
    kubectl.dispose();
    options.workload.dispose();
  }
}
