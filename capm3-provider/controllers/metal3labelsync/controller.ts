import { BareMetalHostResource } from '../../../operator/api/index.ts';
import type { BareMetalHost } from '../../../operator/api/index.ts';
import type { Controller, Manager, MapFunc, ObjectName, Predicate } from '../../../operator/runtime/index.ts';
import { annotationChanged, generationChanged, labelChanged, objectName, or } from '../../../operator/runtime/index.ts';
import { CLUSTER_NAME_LABEL, ClusterResource, MachineResource, Metal3ClusterResource, Metal3MachineResource } from '../../api/index.ts';
import type { Cluster, Machine, Metal3Cluster, Metal3Machine } from '../../api/index.ts';
import { consumedBy } from '../../baremetal/index.ts';
import type { WorkloadClusters } from '../../remote/workload-clusters.ts';
import { ownerClusterRef } from '../metal3cluster/cluster-links.ts';
import { LABEL_SYNC_INTERVAL_MS, Metal3LabelSyncReconciler } from './reconciler.ts';

export const METAL3_LABEL_SYNC_CONTROLLER = 'metal3labelsync';

export interface Metal3LabelSyncControllerOptions {
  maxConcurrentReconciles: number;
  requeueAfterMs: number;
  /** The process's one set of workload cluster clients. */
  workloadClusters: WorkloadClusters;
}

/** A Machine's Node appearing or changing is what lets its host's labels reach it. */
const nodeRefChanged: Predicate<Machine> = {
  update: (oldMachine, newMachine) => oldMachine.status?.nodeRef?.name !== newMachine.status?.nodeRef?.name,
};

/**
 * BareMetalHosts (CAPM3's label sync, keyed by host), woken by their labels, annotations and
 * spec, by their cluster's Metal3Cluster (the prefixes, pausing) and by their Machine's Node.
 * Not limited by --watch-filter, as in CAPM3: hosts are BMO's objects and carry no watch label.
 */
export function setupMetal3LabelSyncController(manager: Manager, options: Metal3LabelSyncControllerOptions): Controller {
  const hosts = manager.informer<BareMetalHost>(BareMetalHostResource);
  const reconciler = new Metal3LabelSyncReconciler({
    hosts,
    metal3Machines: manager.informer<Metal3Machine>(Metal3MachineResource),
    machines: manager.informer<Machine>(MachineResource),
    clusters: manager.informer<Cluster>(ClusterResource),
    metal3Clusters: manager.informer<Metal3Cluster>(Metal3ClusterResource),
    workloadClusters: options.workloadClusters,
    events: manager.eventRecorder('metal3-label-sync-controller'),
    settings: { requeueAfterMs: options.requeueAfterMs, syncIntervalMs: LABEL_SYNC_INTERVAL_MS },
  });
  // Claimed hosts carry their cluster's name as a label (the Metal3Machine controller puts it there).
  const metal3ClusterToHosts: MapFunc<Metal3Cluster> = (m3c) => {
    const clusterName = ownerClusterRef(m3c)?.name;
    if (!clusterName) return [];
    return hosts.list(m3c.metadata.namespace).filter((host) => host.metadata.labels?.[CLUSTER_NAME_LABEL] === clusterName)
      .map((host): ObjectName => objectName(host));
  };
  const machineToHosts: MapFunc<Machine> = (machine) => {
    const m3mName = machine.spec.infrastructureRef?.name;
    if (!m3mName) return [];
    const claimant = { namespace: machine.metadata.namespace ?? '', name: m3mName };
    return hosts.list(claimant.namespace).filter((host) => consumedBy(host, claimant)).map((host): ObjectName => objectName(host));
  };
  const changed = or(generationChanged, labelChanged, annotationChanged);
  return manager
    .controller(METAL3_LABEL_SYNC_CONTROLLER)
    .for(BareMetalHostResource, { predicates: [changed] })
    .watches(Metal3ClusterResource, metal3ClusterToHosts, { predicates: [annotationChanged] })
    .watches(MachineResource, machineToHosts, { predicates: [nodeRefChanged as Predicate] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(reconciler);
}
