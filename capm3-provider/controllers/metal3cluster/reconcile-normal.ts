import type { Result } from '../../../operator/runtime/index.ts';
import { addFinalizer, objectName } from '../../../operator/runtime/index.ts';
import { METAL3_CLUSTER_FINALIZER, metal3ClusterSchema } from '../../api/index.ts';
import type { ClusterDeps, ClusterScope } from './cluster-context.ts';
import { defaultedPort, endpointProblem } from './endpoint.ts';

/** CAPI's v1beta1 ClusterStatusError for a spec that cannot work until a user changes it. */
const INVALID_CONFIGURATION = 'InvalidConfiguration';

/**
 * CAPM3's reconcileNormal: finalizer, the endpoint the user supplied (CAPM3 creates no load
 * balancer), failure domains, and the contract's provisioned flag.
 */
export async function reconcileNormal(scope: ClusterScope, deps: ClusterDeps): Promise<Result> {
  const { status } = scope;
  let m3c = await addFinalizer(deps.metal3Clusters.client, scope.m3c, METAL3_CLUSTER_FINALIZER, { signal: scope.signal });
  const port = defaultedPort(m3c.spec);
  if (port !== undefined) {
    m3c = metal3ClusterSchema.parse(await deps.metal3Clusters.client.patch(objectName(m3c),
      { spec: { controlPlaneEndpoint: { port } } }, { type: 'merge', signal: scope.signal }));
    status.generation = m3c.metadata.generation;
    scope.log.info('defaulted the control plane endpoint port', { port });
  }

  if (m3c.spec.failureDomains) status.next.failureDomains = m3c.spec.failureDomains;
  else delete status.next.failureDomains;

  const problem = endpointProblem(m3c.spec);
  if (problem) {
    status.condition({ type: 'BaremetalInfrastructureReady', status: 'False', reason: 'ControlPlaneEndpointFailed', message: problem });
    status.condition({ type: 'Ready', status: 'False', reason: 'ControlPlaneEndpointFailed', message: problem });
    status.failure({ reason: INVALID_CONFIGURATION, message: `Invalid ControlPlaneEndpoint values: ${problem}` });
    deps.events.event(m3c, { type: 'Warning', reason: 'ControlPlaneEndpointFailed', action: 'ValidateEndpoint', note: problem });
    // Only a spec change can fix it, and that wakes us.
    return {};
  }
  status.failure(undefined);
  status.condition({ type: 'BaremetalInfrastructureReady', status: 'True', reason: 'Ready', message: '' });
  status.condition({ type: 'Ready', status: 'True', reason: 'Ready', message: '' });
  status.next.initialization = { ...status.next.initialization, provisioned: true };
  return {};
}
