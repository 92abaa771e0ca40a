import type { KubeObject, Result } from '../../../operator/runtime/index.ts';
import { isNotFound, objectName, removeFinalizer } from '../../../operator/runtime/index.ts';
import { CLUSTER_API_GROUP, CLUSTER_API_VERSION, METAL3_MACHINE_FINALIZER } from '../../api/index.ts';
import type { Cluster, Machine, Metal3Machine } from '../../api/index.ts';
import { releaseHostStep, reuseOwner } from '../../baremetal/index.ts';
import type { ReleaseRequest } from '../../baremetal/index.ts';
import { hostToRelease } from './held-host.ts';
import type { MachineDeps } from './machine-context.ts';
import { dissociateMachineData } from './machine-data.ts';
import type { MachineStatus } from './machine-status.ts';

export interface DeleteScope {
  m3m: Metal3Machine;
  /** Either may be gone already: deletion never waits for them. */
  machine: Machine | undefined;
  cluster: Cluster | undefined;
  namespace: string;
  status: MachineStatus;
  signal: AbortSignal;
}

/**
 * CAPM3's reconcileDelete: give the host back (deprovisioned and cleaned, or booked for node
 * reuse), then drop the finalizer. A host that vanished or that someone else holds does not
 * block deletion; the host object itself is never deleted.
 */
export async function reconcileDelete(scope: DeleteScope, deps: MachineDeps): Promise<Result> {
  const { m3m, status } = scope;
  status.condition({ type: 'AssociateMetal3MachineMetaData', status: 'False', reason: 'Deleting', message: '' });
  const host = await hostToRelease(m3m, deps.hosts, scope.signal);
  if (host) {
    const request: ReleaseRequest = { hosts: deps.hosts, secrets: deps.secrets, host, fastTrack: deps.settings.fastTrack, signal: scope.signal };
    const reuse = await nodeReuse(scope, deps);
    if (reuse) request.reuse = reuse;
    let step;
    try {
      step = await releaseHostStep(request);
    } catch (error) {
      if (isNotFound(error)) return finish(scope, deps);
      throw error;
    }
    if (step.kind === 'deprovisioning') {
      status.condition({ type: 'Ready', status: 'False', reason: 'Deleting', message: step.why });
      return { requeueAfter: Math.min(deps.settings.requeueAfterMs, 10_000) };
    }
    deps.events.event(m3m, { type: 'Normal', reason: 'HostReleased', action: 'Release',
      note: `released BareMetalHost ${host.metadata.name}${step.reused ? ` (kept for ${request.reuse?.labelValue})` : ''}`, related: step.host });
  }
  return finish(scope, deps);
}

/** The data claim goes once the host is released: its addresses stay taken while the host may still use them. */
async function finish(scope: DeleteScope, deps: MachineDeps): Promise<Result> {
  await dissociateMachineData(deps.data, { m3m: scope.m3m, status: scope.status, signal: scope.signal });
  await removeFinalizer(deps.metal3Machines.client, scope.m3m, METAL3_MACHINE_FINALIZER, { signal: scope.signal });
  return {};
}

/**
 * Node reuse applies when the template the Machine's owner references now says so (CAPM3 1.14:
 * during a rollout that is the new template) and the Cluster itself is not going away.
 */
async function nodeReuse(scope: DeleteScope, deps: MachineDeps): Promise<ReleaseRequest['reuse']> {
  const { machine, cluster } = scope;
  if (!machine || !cluster || cluster.metadata.deletionTimestamp) return undefined;
  const owner = await reuseOwner(machine, deps, scope.signal);
  const templateRef = await owner?.template();
  if (!owner || !templateRef) return undefined;
  let template: KubeObject;
  try {
    template = await deps.templates.get(templateRef, { signal: scope.signal });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  if ((template.spec as { nodeReuse?: boolean } | undefined)?.nodeReuse !== true) return undefined;
  return {
    labelValue: owner.labelValue,
    cluster: { name: objectName(cluster).name, namespace: scope.namespace, apiVersion: `${CLUSTER_API_GROUP}/${CLUSTER_API_VERSION}` },
  };
}
