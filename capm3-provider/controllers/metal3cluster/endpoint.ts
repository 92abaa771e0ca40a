import { DEFAULT_CONTROL_PLANE_PORT } from '../../api/index.ts';
import type { Metal3ClusterSpec } from '../../api/index.ts';

/**
 * The port CAPM3's defaulting webhook writes when the endpoint has none; undefined when the spec
 * already carries one. The controller writes it too, for objects no webhook saw (--webhook-port=0).
 */
export function defaultedPort(spec: Metal3ClusterSpec): number | undefined {
  return spec.controlPlaneEndpoint?.port === undefined ? DEFAULT_CONTROL_PLANE_PORT : undefined;
}

/** Why the control plane endpoint cannot be used (CAPM3's ControlPlaneEndpointFailed), or undefined when it can. */
export function endpointProblem(spec: Metal3ClusterSpec): string | undefined {
  const endpoint = spec.controlPlaneEndpoint;
  if (!endpoint?.host?.trim()) {
    return 'spec.controlPlaneEndpoint.host is required: the address (VIP or load balancer) of the workload cluster API server';
  }
  if (endpoint.port === undefined) return 'spec.controlPlaneEndpoint.port is required';
  return undefined;
}
