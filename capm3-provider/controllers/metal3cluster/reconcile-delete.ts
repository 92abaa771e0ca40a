import type { Result } from '../../../operator/runtime/index.ts';
import { removeFinalizer } from '../../../operator/runtime/index.ts';
import { METAL3_CLUSTER_FINALIZER } from '../../api/index.ts';
import type { ClusterDeps, ClusterScope } from './cluster-context.ts';
import { machinesOfCluster } from './cluster-links.ts';

/**
 * CAPM3's reconcileDelete: the Metal3Cluster stays while any Machine of its cluster exists
 * (their Metal3Machines still need it), then the finalizer goes. Machine deletions wake us;
 * the requeue is a safety net.
 */
export async function reconcileDelete(scope: ClusterScope, deps: ClusterDeps): Promise<{ result: Result; released: boolean }> {
  const machines = machinesOfCluster(deps.machines.list(scope.namespace), scope.clusterName);
  if (machines.length > 0) {
    const names = machines.slice(0, 5).map((machine) => machine.metadata.name).join(', ');
    scope.status.condition({ type: 'Ready', status: 'False', reason: 'Deleting',
      message: `waiting for ${machines.length} Machine(s) of Cluster ${scope.clusterName} to be deleted: ${names}${machines.length > 5 ? ', ...' : ''}` });
    return { result: { requeueAfter: deps.settings.requeueAfterMs }, released: false };
  }
  await removeFinalizer(deps.metal3Clusters.client, scope.m3c, METAL3_CLUSTER_FINALIZER, { signal: scope.signal });
  scope.log.info('no Machines left; released the Metal3Cluster');
  return { result: {}, released: true };
}
