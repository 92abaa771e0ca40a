import type { Clock, ReconcileContext, Reconciler, Request, Result } from '../../../operator/runtime/index.ts';
import { hasFinalizer, isConflict, isNotFound, patchStatus, removeFinalizer } from '../../../operator/runtime/index.ts';
import { METAL3_CLUSTER_FINALIZER, metal3ClusterSchema } from '../../api/index.ts';
import type { Cluster, Metal3Cluster } from '../../api/index.ts';
import type { ClusterDeps, ClusterScope } from './cluster-context.ts';
import { isExternallyManaged, isPaused, ownerClusterRef } from './cluster-links.ts';
import { ClusterStatus } from './cluster-status.ts';
import { reconcileDelete } from './reconcile-delete.ts';
import { reconcileNormal } from './reconcile-normal.ts';

/**
 * The Metal3Cluster reconciler (CAPM3's, v1beta2 contract): externally managed objects are
 * left alone; otherwise owner Cluster, pause, then reconcileNormal / reconcileDelete, with
 * the status written once at the end.
 */
export class Metal3ClusterReconciler implements Reconciler {
  readonly #deps: ClusterDeps;
  readonly #clock: Clock;

  constructor(deps: ClusterDeps, clock: Clock) {
    this.#deps = deps;
    this.#clock = clock;
  }

  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    const cached = this.#deps.metal3Clusters.cache.get(request);
    if (!cached) return {};
    const m3c = metal3ClusterSchema.parse(cached);
    if (isExternallyManaged(m3c)) {
      context.log.debug('externally managed (cluster.x-k8s.io/managed-by); leaving it alone');
      return {};
    }
    const status = new ClusterStatus(m3c, this.#clock);
    let outcome: { result: Result; released?: boolean };
    try {
      outcome = await this.#reconcile(m3c, status, context);
    } catch (error) {
      if (!isConflict(error)) {
        await this.#writeStatus(m3c, status, context);
        throw error;
      }
      context.log.debug('conflict writing the Metal3Cluster; requeueing', { error: (error as Error).message });
      outcome = { result: { requeue: true } };
    }
    // Once the finalizer is gone the object may be too; nothing is left to report on.
    if (!outcome.released) await this.#writeStatus(m3c, status, context);
    return outcome.result;
  }

  async #reconcile(m3c: Metal3Cluster, status: ClusterStatus, context: ReconcileContext): Promise<{ result: Result; released?: boolean }> {
    const deps = this.#deps;
    const namespace = m3c.metadata.namespace ?? '';
    const owner = ownerClusterRef(m3c);
    if (!owner) {
      if (m3c.metadata.deletionTimestamp) return this.#release(m3c, context);
      status.condition({ type: 'Ready', status: 'False', reason: 'WaitingForClusterOwnerRef',
        message: 'waiting for Cluster API to set a Cluster ownerReference on this Metal3Cluster' });
      return { result: {} };
    }
    const found = deps.clusters.get({ namespace, name: owner.name });
    // A Cluster recreated under the same name is not our owner.
    const cluster: Cluster | undefined = found && (!found.metadata.uid || found.metadata.uid === owner.uid) ? found : undefined;
    const log = context.log.child({ cluster: owner.name });

    if (isPaused(cluster, m3c)) {
      status.condition({ type: 'Paused', status: 'True', reason: 'Paused',
        message: cluster?.spec.paused ? `Cluster ${owner.name} is paused` : 'this Metal3Cluster has the cluster.x-k8s.io/paused annotation' });
      return { result: {} };
    }
    status.condition({ type: 'Paused', status: 'False', reason: 'NotPaused', message: '' });

    const scope: ClusterScope = { m3c, clusterName: owner.name, namespace, status, log, signal: context.signal };
    if (m3c.metadata.deletionTimestamp) {
      if (!hasFinalizer(m3c, METAL3_CLUSTER_FINALIZER)) return { result: {} };
      return reconcileDelete(scope, deps);
    }
    if (!cluster) {
      status.condition({ type: 'Ready', status: 'False', reason: 'FailedToGetOwnerCluster',
        message: `owner Cluster ${namespace}/${owner.name} does not exist` });
      return { result: {} };
    }
    return { result: await reconcileNormal(scope, deps) };
  }

  async #release(m3c: Metal3Cluster, context: ReconcileContext): Promise<{ result: Result; released: boolean }> {
    await removeFinalizer(this.#deps.metal3Clusters.client, m3c, METAL3_CLUSTER_FINALIZER, { signal: context.signal });
    return { result: {}, released: true };
  }

  async #writeStatus(m3c: Metal3Cluster, status: ClusterStatus, context: ReconcileContext): Promise<void> {
    status.legacyConditions();
    const patch = status.patch();
    if (!patch) return;
    try {
      await patchStatus(this.#deps.metal3Clusters.client, m3c, patch, { signal: context.signal });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
