import type { EventRecorder, Informer, Logger, ResourceClient } from '../../../operator/runtime/index.ts';
import type { Cluster, Machine, Metal3Cluster } from '../../api/index.ts';
import type { ClusterStatus } from './cluster-status.ts';

/** Clients and caches the Metal3Cluster reconciler works with; built once in controller.ts. */
export interface ClusterDeps {
  metal3Clusters: { client: ResourceClient<Metal3Cluster>; cache: Informer<Metal3Cluster> };
  clusters: Informer<Cluster>;
  machines: Informer<Machine>;
  events: EventRecorder;
  settings: { requeueAfterMs: number };
}

/** Everything one reconcile of one Metal3Cluster has loaded. */
export interface ClusterScope {
  m3c: Metal3Cluster;
  /** The owner Cluster's name (from the ownerReference; the Cluster itself may be gone when deleting). */
  clusterName: string;
  namespace: string;
  status: ClusterStatus;
  log: Logger;
  signal: AbortSignal;
}
