import type { Informer, KubeObject, OwnerReference } from '../../../operator/runtime/index.ts';
import {
  CLUSTER_API_GROUP, CLUSTER_NAME_LABEL, CLUSTER_PAUSED_ANNOTATION, INFRASTRUCTURE_GROUP, MANAGED_BY_ANNOTATION, Metal3ClusterResource,
} from '../../api/index.ts';
import type { Cluster } from '../../api/index.ts';

/** How a Metal3Cluster is tied to its Cluster API Cluster and Machines: pure lookups over metadata. */

/** The ownerReference Cluster API's Cluster controller puts on its infrastructure cluster. */
export function ownerClusterRef(metal3Cluster: KubeObject): OwnerReference | undefined {
  return metal3Cluster.metadata.ownerReferences?.find(
    (ref) => ref.kind === 'Cluster' && ref.apiVersion.startsWith(`${CLUSTER_API_GROUP}/`),
  );
}

/** Something other than this provider owns the infrastructure (Cluster API's `managed-by`). */
export function isExternallyManaged(object: KubeObject): boolean {
  return object.metadata.annotations?.[MANAGED_BY_ANNOTATION] !== undefined;
}

/** Cluster API pausing: the Cluster's spec.paused, or the paused annotation on the object itself. */
export function isPaused(cluster: Cluster | undefined, object: KubeObject): boolean {
  return cluster?.spec.paused === true || object.metadata.annotations?.[CLUSTER_PAUSED_ANNOTATION] !== undefined;
}

/** The Cluster an object names in its `cluster.x-k8s.io/cluster-name` label (Cluster API's GetClusterFromMetadata), if it exists. */
export function clusterOf(object: KubeObject, clusters: Pick<Informer<Cluster>, 'get'>): Cluster | undefined {
  const name = object.metadata.labels?.[CLUSTER_NAME_LABEL];
  return name ? clusters.get({ namespace: object.metadata.namespace, name }) : undefined;
}

/** The Metal3Cluster a Cluster's infrastructureRef names, if it names one. */
export function infrastructureClusterName(cluster: Cluster): string | undefined {
  const ref = cluster.spec.infrastructureRef;
  if (!ref?.name || ref.kind !== Metal3ClusterResource.kind) return undefined;
  if (ref.apiGroup && ref.apiGroup !== INFRASTRUCTURE_GROUP) return undefined;
  return ref.name;
}

/** Metal3Clusters owned by the Cluster named `clusterName` (they all share its namespace). */
export function metal3ClustersOwnedBy<T extends KubeObject>(metal3Clusters: readonly T[], clusterName: string): T[] {
  return metal3Clusters.filter((m3c) => ownerClusterRef(m3c)?.name === clusterName);
}

/** Machines that still belong to the cluster: CAPM3 counts them by the cluster-name label. */
export function machinesOfCluster<T extends KubeObject>(machines: readonly T[], clusterName: string): T[] {
  return machines.filter((machine) => machine.metadata.labels?.[CLUSTER_NAME_LABEL] === clusterName);
}
