import type { BareMetalHost } from '../../../operator/api/index.ts';
import { BareMetalHostResource } from '../../../operator/api/index.ts';
import type { Controller, KubeObject, Manager, MapFunc, ObjectName } from '../../../operator/runtime/index.ts';
import { SecretResource, annotationChanged, deletionRequested, finalizerChanged, generationChanged, labelChanged, or } from '../../../operator/runtime/index.ts';
import {
  CLUSTER_NAME_LABEL, ClusterResource, INFRASTRUCTURE_GROUP, MachineResource, MachineSetResource, Metal3ClusterResource,
  Metal3DataClaimResource, Metal3DataResource, Metal3DataTemplateResource, Metal3MachineResource, Metal3MachineTemplateResource,
} from '../../api/index.ts';
import type { Cluster, Machine, Metal3Data, Metal3DataClaim, Metal3Machine } from '../../api/index.ts';
import type { WorkloadClusters } from '../../remote/workload-clusters.ts';
import { filteredReconciler } from '../../watch-filter.ts';
import type { WatchFilter } from '../../watch-filter.ts';
import { Metal3MachineReconciler } from './reconciler.ts';

export const METAL3_MACHINE_CONTROLLER = 'metal3machine';

export interface Metal3MachineControllerOptions {
  maxConcurrentReconciles: number;
  /** The process's one set of workload cluster clients. */
  workloadClusters: WorkloadClusters;
  fastTrack: boolean;
  requeueAfterMs: number;
  /** Only objects carrying this `cluster.x-k8s.io/watch-filter` value (CAPM3's --watch-filter). */
  watchFilter?: WatchFilter;
  random?: () => number;
}

/**
 * Metal3Machines, woken by their Machine, their Cluster and the host they hold. Hosts are
 * watched for wake-ups only; every decision reads them live.
 */
export function setupMetal3MachineController(manager: Manager, options: Metal3MachineControllerOptions): Controller {
  const cache = manager.informer<Metal3Machine>(Metal3MachineResource);
  const reconciler = new Metal3MachineReconciler({
    metal3Machines: { client: manager.client<Metal3Machine>(Metal3MachineResource), cache },
    machines: manager.informer<Machine>(MachineResource),
    clusters: manager.informer<Cluster>(ClusterResource),
    metal3Clusters: manager.client(Metal3ClusterResource),
    machineSets: manager.client(MachineSetResource),
    controlPlanes: (owner) => {
      const [group = '', version = ''] = owner.apiVersion.split('/');
      // Cluster API's contract names CRDs by the plural of their kind (clusterctl checks it).
      return manager.client({ group, version, kind: owner.kind, plural: `${owner.kind.toLowerCase()}s`, namespaced: true });
    },
    templates: manager.client(Metal3MachineTemplateResource),
    hosts: manager.client<BareMetalHost>(BareMetalHostResource),
    secrets: manager.client(SecretResource),
    data: {
      dataClaims: manager.client<Metal3DataClaim>(Metal3DataClaimResource),
      datas: manager.client<Metal3Data>(Metal3DataResource),
      dataTemplates: manager.client(Metal3DataTemplateResource),
    },
    workloadClusters: options.workloadClusters,
    events: manager.eventRecorder('metal3machine-controller'),
    settings: { fastTrack: options.fastTrack, requeueAfterMs: options.requeueAfterMs },
    random: options.random ?? Math.random,
  }, manager.clock);

  const machineToMetal3Machine: MapFunc<Machine> = (machine) => {
    const ref = machine.spec?.infrastructureRef;
    if (!ref?.name || ref.kind !== Metal3MachineResource.kind || (ref.apiGroup && ref.apiGroup !== INFRASTRUCTURE_GROUP)) return [];
    return [{ namespace: machine.metadata.namespace, name: ref.name }];
  };
  const hostToMetal3Machine: MapFunc<BareMetalHost> = (host) => {
    const ref = host.spec?.consumerRef;
    if (!ref?.name || ref.kind !== Metal3MachineResource.kind || !(ref.apiVersion ?? '').startsWith(`${INFRASTRUCTURE_GROUP}/`)) return [];
    return [{ namespace: ref.namespace ?? host.metadata.namespace, name: ref.name }];
  };
  const clusterToMetal3Machines: MapFunc<KubeObject> = (cluster) =>
    cache.list(cluster.metadata.namespace)
      .filter((m3m) => m3m.metadata.labels?.[CLUSTER_NAME_LABEL] === cluster.metadata.name)
      .map((m3m): ObjectName => ({ namespace: m3m.metadata.namespace, name: m3m.metadata.name ?? '' }));
  const dataToMetal3Machine: MapFunc<Metal3Data> = (data) =>
    (data.metadata.ownerReferences ?? [])
      .filter((owner) => owner.kind === Metal3MachineResource.kind && owner.apiVersion.startsWith(`${INFRASTRUCTURE_GROUP}/`))
      .map((owner): ObjectName => ({ namespace: data.metadata.namespace, name: owner.name }));
  const metal3ClusterToMetal3Machines: MapFunc<KubeObject> = (metal3Cluster) => {
    const clusterName = metal3Cluster.metadata.labels?.[CLUSTER_NAME_LABEL];
    return clusterName ? clusterToMetal3Machines({ metadata: { namespace: metal3Cluster.metadata.namespace, name: clusterName } }) : [];
  };

  // Our own status writes do not wake us; spec, metadata and deletion changes do.
  const changed = or(generationChanged, annotationChanged, labelChanged, finalizerChanged, deletionRequested);
  return manager
    .controller(METAL3_MACHINE_CONTROLLER)
    .for(Metal3MachineResource, { predicates: options.watchFilter ? [changed, options.watchFilter.predicate] : [changed] })
    .watches(MachineResource, machineToMetal3Machine)
    .watches(BareMetalHostResource, hostToMetal3Machine)
    .watches(ClusterResource, clusterToMetal3Machines)
    .watches(Metal3ClusterResource, metal3ClusterToMetal3Machines)
    // A claim given its Metal3Data, and a Metal3Data turning ready, let the host spec be written.
    .owns(Metal3DataClaimResource)
    .watches(Metal3DataResource, dataToMetal3Machine)
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(filteredReconciler(reconciler, { cache, filter: options.watchFilter }));
}
