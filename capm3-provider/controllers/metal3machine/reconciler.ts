import type { ReconcileContext, Reconciler, Request, Result } from '../../../operator/runtime/index.ts';
import { addFinalizer, isConflict, isNotFound, objectName, patchStatus } from '../../../operator/runtime/index.ts';
import type { Clock } from '../../../operator/runtime/index.ts';
import { CLUSTER_NAME_LABEL, METAL3_MACHINE_FINALIZER, metal3MachineSchema } from '../../api/index.ts';
import type { Cluster, Metal3Machine } from '../../api/index.ts';
import { patchHeldHost, pauseAnnotationChanges } from '../../baremetal/index.ts';
import { isPaused } from '../metal3cluster/cluster-links.ts';
import { annotatedHost } from './held-host.ts';
import type { MachineDeps, MachineScope } from './machine-context.ts';
import { MachineStatus } from './machine-status.ts';
import { ownerMachine } from './owner-machine.ts';
import { reconcileDelete } from './reconcile-delete.ts';
import { HostLostError, reconcileNormal } from './reconcile-normal.ts';

/**
 * The Metal3Machine reconciler: loads the Machine and Cluster, handles pause, then hands over
 * to reconcileNormal / reconcileDelete; writes the status once at the end.
 */
export class Metal3MachineReconciler implements Reconciler {
  readonly #deps: MachineDeps;
  readonly #clock: Clock;

  constructor(deps: MachineDeps, clock: Clock) {
    this.#deps = deps;
    this.#clock = clock;
  }

  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    const cached = this.#deps.metal3Machines.cache.get(request);
    if (!cached) return {};
    const m3m = metal3MachineSchema.parse(cached);
    const status = new MachineStatus(m3m, this.#clock);
    let result: Result;
    try {
      result = await this.#reconcile(m3m, status, context);
    } catch (error) {
      if (error instanceof HostLostError) {
        status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'HostClaimedElsewhere', message: error.message });
        this.#deps.events.event(m3m, { type: 'Warning', reason: 'HostClaimedElsewhere', action: 'Associate', note: error.message });
        result = { requeueAfter: this.#deps.settings.requeueAfterMs };
      } else if (isConflict(error)) {
        context.log.debug('conflict writing an object; requeueing', { error: (error as Error).message });
        result = { requeue: true };
      } else {
        await this.#writeStatus(m3m, status, context);
        throw error;
      }
    }
    await this.#writeStatus(m3m, status, context);
    return result;
  }

  async #writeStatus(m3m: Metal3Machine, status: MachineStatus, context: ReconcileContext): Promise<void> {
    const deleting = m3m.metadata.deletionTimestamp !== undefined;
    if (!deleting) status.summarize();
    status.legacyConditions({ deleting });
    const patch = status.patch();
    if (!patch) return;
    try {
      await patchStatus(this.#deps.metal3Machines.client, m3m, patch, { signal: context.signal });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async #reconcile(m3m: Metal3Machine, status: MachineStatus, context: ReconcileContext): Promise<Result> {
    const deps = this.#deps;
    const namespace = m3m.metadata.namespace ?? '';
    const machine = ownerMachine(m3m, deps.machines);
    const clusterName = machine?.metadata.labels?.[CLUSTER_NAME_LABEL] ?? machine?.spec.clusterName;
    const cluster = clusterName ? deps.clusters.get({ namespace, name: clusterName }) : undefined;
    const log = context.log.child({ machine: machine?.metadata.name, cluster: clusterName, host: m3m.metadata.annotations?.['metal3.io/BareMetalHost'] });

    if (cluster && isPaused(cluster, m3m)) {
      await this.#mirrorPause(m3m, cluster, context.signal);
      status.condition({ type: 'Paused', status: 'True', reason: 'Paused', message: `Cluster ${cluster.metadata.name} or this Metal3Machine is paused` });
      return {};
    }
    status.condition({ type: 'Paused', status: 'False', reason: 'NotPaused', message: '' });

    if (m3m.metadata.deletionTimestamp) {
      return reconcileDelete({ m3m, machine, cluster, namespace, status, signal: context.signal }, deps);
    }
    if (!machine) {
      status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'WaitingForMetal3MachineOwnerRef', message: 'no Machine owns this Metal3Machine yet' });
      return {};
    }
    if (!clusterName) {
      // CAPM3's reason for both a missing label and a missing Cluster; the message says which.
      status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'WaitingForClusterInfrastructureReady',
        message: `Machine ${machine.metadata.name} has no ${CLUSTER_NAME_LABEL} label` });
      return {};
    }
    if (!cluster) {
      status.condition({ type: 'AssociateBareMetalHost', status: 'False', reason: 'WaitingForClusterInfrastructureReady', message: `Cluster ${namespace}/${clusterName} does not exist` });
      return {};
    }
    let current = m3m;
    current = await addFinalizer(deps.metal3Machines.client, current, METAL3_MACHINE_FINALIZER, { signal: context.signal });
    if (machine.spec.failureDomain && current.spec.failureDomain !== machine.spec.failureDomain) {
      current = metal3MachineSchema.parse(await deps.metal3Machines.client.patch(objectName(current), { spec: { failureDomain: machine.spec.failureDomain } },
        { type: 'merge', signal: context.signal }));
    }
    const scope: MachineScope = { m3m: metal3MachineSchema.parse(current), machine, cluster, clusterName, namespace, status, log, signal: context.signal };
    return reconcileNormal(scope, deps);
  }

  /** Puts the Cluster's pause on the held host (only the Cluster's: an annotation on the machine pauses just us). */
  async #mirrorPause(m3m: Metal3Machine, cluster: Cluster, signal: AbortSignal): Promise<void> {
    if (!cluster.spec.paused) return;
    const found = await annotatedHost(m3m, this.#deps.hosts, signal);
    if (!found?.host) return;
    const annotations = pauseAnnotationChanges(found.host, { clusterPaused: true, clusterName: cluster.metadata.name ?? '' });
    if (annotations) await patchHeldHost(this.#deps.hosts, found.host, { metadata: { annotations } }, signal);
  }
}
