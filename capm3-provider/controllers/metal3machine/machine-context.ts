import type { BareMetalHost } from '../../../operator/api/index.ts';
import type { EventRecorder, Informer, KubeObject, Logger, ResourceClient } from '../../../operator/runtime/index.ts';
import type { Cluster, Machine, Metal3Machine } from '../../api/index.ts';
import type { WorkloadClusters } from '../../remote/workload-clusters.ts';
import type { DataClients } from './machine-data.ts';
import type { MachineStatus } from './machine-status.ts';

/** Clients and caches the Metal3Machine reconciler works with; built once in controller.ts. */
export interface MachineDeps {
  metal3Machines: { client: ResourceClient<Metal3Machine>; cache: Informer<Metal3Machine> };
  machines: Informer<Machine>;
  clusters: Informer<Cluster>;
  metal3Clusters: ResourceClient<KubeObject>;
  machineSets: ResourceClient<KubeObject>;
  /** Control plane objects (any provider), read for node reuse's template. */
  controlPlanes: (owner: { apiVersion: string; kind: string }) => ResourceClient<KubeObject>;
  templates: ResourceClient<KubeObject>;
  /** Read live, never from a cache: a claim must see the latest consumerRef (CAPM3 does the same). */
  hosts: ResourceClient<BareMetalHost>;
  secrets: ResourceClient<KubeObject>;
  /** Metal3DataClaims, Metal3Data and their templates, read live. */
  data: DataClients;
  workloadClusters: WorkloadClusters;
  events: EventRecorder;
  settings: { fastTrack: boolean; requeueAfterMs: number };
  random: () => number;
}

/** Everything one reconcile of one Metal3Machine has loaded. */
export interface MachineScope {
  m3m: Metal3Machine;
  machine: Machine;
  cluster: Cluster;
  clusterName: string;
  namespace: string;
  status: MachineStatus;
  log: Logger;
  signal: AbortSignal;
}
