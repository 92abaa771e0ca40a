import type { Kubectl } from '../../support/kubectl.ts';
import { waitFor } from '../../support/wait-for.ts';

const minutes = (n: number) => n * 60_000;

/**
 * Deleting the Clusters lets Cluster API delete the Machines and the provider release the hosts;
 * then the operator deletes the hosts. Best effort: whatever is left is cleared with the namespace.
 */
export async function deleteClustersAndHosts(kubectl: Kubectl, namespace: string): Promise<void> {
  const count = async (kind: string) => (await kubectl.json<{ items: unknown[] }>(['get', kind, '-n', namespace])).items.length;
  await kubectl.run(['delete', 'clusters.cluster.x-k8s.io', '--all', '-n', namespace, '--wait=false']);
  await waitFor(async () => ((await count('clusters.cluster.x-k8s.io')) === 0 ? true : undefined),
    { timeoutMs: minutes(4), what: 'the Cluster to be deleted' }).catch(() => undefined);
  await kubectl.run(['delete', 'bmh', '--all', '-n', namespace, '--wait=false']);
  await waitFor(async () => ((await count('bmh')) === 0 ? true : undefined), { timeoutMs: minutes(3), what: 'hosts deleted' })
    .catch(() => undefined);
}
