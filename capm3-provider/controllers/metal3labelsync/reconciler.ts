import type { BareMetalHost } from '../../../operator/api/index.ts';
import { PAUSED_ANNOTATION } from '../../../operator/api/index.ts';
import type { EventRecorder, Informer, ReconcileContext, Reconciler, Request, Result } from '../../../operator/runtime/index.ts';
import { isNotFound } from '../../../operator/runtime/index.ts';
import { INFRASTRUCTURE_GROUP, LABEL_SYNC_PREFIXES_ANNOTATION, Metal3MachineResource } from '../../api/index.ts';
import type { Cluster, Machine, Metal3Cluster, Metal3Machine } from '../../api/index.ts';
import type { WorkloadClusters } from '../../remote/workload-clusters.ts';
import { infrastructureClusterName, isPaused } from '../metal3cluster/cluster-links.ts';
import { ownerMachine } from '../metal3machine/owner-machine.ts';
import { nodeLabelPatch, parsePrefixes } from './label-sync-set.ts';

export interface LabelSyncDeps {
  hosts: Informer<BareMetalHost>;
  metal3Machines: Informer<Metal3Machine>;
  machines: Informer<Machine>;
  clusters: Informer<Cluster>;
  metal3Clusters: Informer<Metal3Cluster>;
  workloadClusters: WorkloadClusters;
  events: EventRecorder;
  settings: {
    /** How soon a link that is not there yet (machine, Node, cluster) is looked for again. */
    requeueAfterMs: number;
    /** How often a synced Node is looked at again: its labels can be changed in the workload cluster. */
    syncIntervalMs: number;
  };
}

/** CAPM3's bmhSyncInterval. */
export const LABEL_SYNC_INTERVAL_MS = 60_000;

/**
 * CAPM3's Metal3LabelSync: a claimed host's labels under the prefixes its Metal3Cluster names
 * (`metal3.io/metal3-label-sync-prefixes`) are kept on the workload Node of its Machine, added,
 * changed and removed as on the host. Only labels under those prefixes are written.
 */
export class Metal3LabelSyncReconciler implements Reconciler {
  readonly #deps: LabelSyncDeps;

  constructor(deps: LabelSyncDeps) {
    this.#deps = deps;
  }

  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    const deps = this.#deps;
    const { requeueAfterMs, syncIntervalMs } = deps.settings;
    const host = deps.hosts.get(request);
    if (!host) return {};
    if (host.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined) {
      context.log.debug('host is paused; labels not synced');
      return { requeueAfter: syncIntervalMs };
    }
    const consumer = host.spec.consumerRef;
    if (!consumer || consumer.kind !== Metal3MachineResource.kind || !consumer.apiVersion?.startsWith(`${INFRASTRUCTURE_GROUP}/`)) return {};
    const waiting = (why: string): Result => {
      context.log.debug(`labels not synced yet: ${why}`);
      return { requeueAfter: requeueAfterMs };
    };
    const namespace = consumer.namespace || (host.metadata.namespace ?? '');
    const m3m = deps.metal3Machines.get({ namespace, name: consumer.name ?? '' });
    if (!m3m) return waiting(`Metal3Machine ${namespace}/${consumer.name} not found`);
    const machine = ownerMachine(m3m, deps.machines);
    if (!machine) return waiting(`Metal3Machine ${m3m.metadata.name} has no Machine`);
    const nodeName = machine.status?.nodeRef?.name;
    if (!nodeName) return waiting(`Machine ${machine.metadata.name} has no Node yet`);
    const cluster = deps.clusters.get({ namespace, name: machine.spec.clusterName ?? '' });
    const metal3ClusterName = cluster ? infrastructureClusterName(cluster) : undefined;
    const metal3Cluster = metal3ClusterName ? deps.metal3Clusters.get({ namespace, name: metal3ClusterName }) : undefined;
    if (!cluster || !metal3Cluster) return waiting(`Cluster ${machine.spec.clusterName} or its Metal3Cluster not found`);
    if (isPaused(cluster, metal3Cluster)) {
      context.log.debug('cluster is paused; labels not synced');
      return { requeueAfter: syncIntervalMs };
    }
    const annotation = metal3Cluster.metadata.annotations?.[LABEL_SYNC_PREFIXES_ANNOTATION];
    if (annotation === undefined) return {};
    const parsed = parsePrefixes(annotation);
    if (!parsed.ok) {
      // Retrying cannot fix the annotation; editing it wakes every host of the cluster.
      const note = `${LABEL_SYNC_PREFIXES_ANNOTATION}: ${parsed.error}`;
      context.log.warn('labels not synced', { reason: note });
      deps.events.event(metal3Cluster, { type: 'Warning', reason: 'InvalidLabelSyncPrefixes', action: 'SyncLabels', note });
      return {};
    }
    const nodes = await deps.workloadClusters.nodes({ namespace, clusterName: cluster.metadata.name ?? '' }, context.signal);
    if (nodes.kind !== 'ready') return waiting(nodes.why);
    let node;
    try {
      node = await nodes.nodes.get({ name: nodeName }, { signal: context.signal });
    } catch (error) {
      if (isNotFound(error)) return waiting(`Node ${nodeName} not found in the workload cluster`);
      throw error;
    }
    const patch = nodeLabelPatch({ hostLabels: host.metadata.labels, nodeLabels: node.metadata.labels, prefixes: parsed.prefixes });
    if (Object.keys(patch).length > 0) {
      await nodes.nodes.patch({ name: nodeName }, { metadata: { labels: patch } }, { type: 'merge', signal: context.signal });
      context.log.info('synchronized labels between BareMetalHost and Node', { node: nodeName, labels: patch });
    }
    return { requeueAfter: syncIntervalMs };
  }
}
