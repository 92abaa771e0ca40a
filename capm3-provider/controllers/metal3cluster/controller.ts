import type { Controller, Manager, MapFunc, ObjectName, Predicate } from '../../../operator/runtime/index.ts';
import {
  annotationChanged, deepEqual, deletionRequested, finalizerChanged, generationChanged, labelChanged, or,
} from '../../../operator/runtime/index.ts';
import { CLUSTER_NAME_LABEL, ClusterResource, MachineResource, Metal3ClusterResource } from '../../api/index.ts';
import type { Cluster, Machine, Metal3Cluster } from '../../api/index.ts';
import { infrastructureClusterName, metal3ClustersOwnedBy } from './cluster-links.ts';
import { filteredReconciler } from '../../watch-filter.ts';
import type { WatchFilter } from '../../watch-filter.ts';
import { Metal3ClusterReconciler } from './reconciler.ts';

export const METAL3_CLUSTER_CONTROLLER = 'metal3cluster';

export interface Metal3ClusterControllerOptions {
  maxConcurrentReconciles: number;
  requeueAfterMs: number;
  /** Only objects carrying this `cluster.x-k8s.io/watch-filter` value (CAPM3's --watch-filter). */
  watchFilter?: WatchFilter;
}

/** Cluster API adopting the object shows up only as an ownerReferences change. */
const ownerReferencesChanged: Predicate = {
  update: (oldObject, newObject) => !deepEqual(oldObject.metadata.ownerReferences ?? [], newObject.metadata.ownerReferences ?? []),
};

/** Only a Machine going away can unblock a deletion. */
const machineGone: Predicate = { create: () => false, update: () => false, delete: () => true };

/** Metal3Clusters, woken by their Cluster (pause, adoption) and by their cluster's Machines disappearing. */
export function setupMetal3ClusterController(manager: Manager, options: Metal3ClusterControllerOptions): Controller {
  const cache = manager.informer<Metal3Cluster>(Metal3ClusterResource);
  const reconciler = new Metal3ClusterReconciler({
    metal3Clusters: { client: manager.client<Metal3Cluster>(Metal3ClusterResource), cache },
    clusters: manager.informer<Cluster>(ClusterResource),
    machines: manager.informer<Machine>(MachineResource),
    events: manager.eventRecorder('metal3cluster-controller'),
    settings: { requeueAfterMs: options.requeueAfterMs },
  }, manager.clock);

  const clusterToMetal3Cluster: MapFunc<Cluster> = (cluster) => {
    const name = infrastructureClusterName(cluster);
    return name ? [{ namespace: cluster.metadata.namespace, name }] : [];
  };
  const machineToMetal3Clusters: MapFunc<Machine> = (machine) => {
    const clusterName = machine.metadata.labels?.[CLUSTER_NAME_LABEL];
    if (!clusterName) return [];
    return metal3ClustersOwnedBy(cache.list(machine.metadata.namespace), clusterName)
      .map((m3c): ObjectName => ({ namespace: m3c.metadata.namespace, name: m3c.metadata.name ?? '' }));
  };

  // Our own status writes do not wake us; spec, metadata and deletion changes do.
  const changed = or(generationChanged, annotationChanged, labelChanged, finalizerChanged, ownerReferencesChanged, deletionRequested);
  return manager
    .controller(METAL3_CLUSTER_CONTROLLER)
    .for(Metal3ClusterResource, { predicates: options.watchFilter ? [changed, options.watchFilter.predicate] : [changed] })
    .watches(ClusterResource, clusterToMetal3Cluster, { predicates: [or(generationChanged, annotationChanged, deletionRequested)] })
    .watches(MachineResource, machineToMetal3Clusters, { predicates: [machineGone] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(filteredReconciler(reconciler, { cache, filter: options.watchFilter }));
}
