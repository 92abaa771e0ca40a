import type { BareMetalHost } from '../../operator/api/index.ts';
import type { ResourceClient } from '../../operator/runtime/index.ts';
import { isConflict, isNotFound, objectName } from '../../operator/runtime/index.ts';
import { CLUSTER_NAME_LABEL, INFRASTRUCTURE_API_VERSION, NODE_REUSE_LABEL } from '../api/index.ts';
import type { Metal3Machine } from '../api/index.ts';
import type { HostData } from './host-spec.ts';
import { hostSpecChanges } from './host-spec.ts';
import { claimAnnotationChanges } from './pause.ts';

export interface ClaimRequest {
  hosts: ResourceClient<BareMetalHost>;
  host: BareMetalHost;
  machine: Metal3Machine;
  clusterName: string;
  data: HostData;
  signal?: AbortSignal;
}

export type ClaimOutcome = { kind: 'claimed'; host: BareMetalHost } | { kind: 'lost'; why: string };

/**
 * Takes the host for the machine in one merge patch conditioned on the resourceVersion the
 * choice was made from. Two claimants (even in two processes) racing for one host: the API
 * server accepts exactly one write; the other gets 409 Conflict and chooses again. CAPM3
 * relies on an in-process mutex and an unconditioned patch instead.
 */
export async function claimHost(request: ClaimRequest): Promise<ClaimOutcome> {
  const { host, machine } = request;
  const labels: Record<string, string | null> = { [CLUSTER_NAME_LABEL]: request.clusterName };
  if (host.metadata.labels?.[NODE_REUSE_LABEL] !== undefined) labels[NODE_REUSE_LABEL] = null;
  const annotations = claimAnnotationChanges(host);
  const patch = {
    metadata: { resourceVersion: host.metadata.resourceVersion, labels, ...(annotations ? { annotations } : {}) },
    spec: {
      consumerRef: {
        apiVersion: INFRASTRUCTURE_API_VERSION,
        kind: 'Metal3Machine',
        name: machine.metadata.name,
        namespace: machine.metadata.namespace,
      },
      ...hostSpecChanges(host, machine, request.data),
    },
  };
  try {
    const claimed = await request.hosts.patch(objectName(host), patch, { type: 'merge', signal: request.signal });
    return { kind: 'claimed', host: claimed };
  } catch (error) {
    if (isConflict(error)) return { kind: 'lost', why: `${host.metadata.name} changed while being claimed` };
    if (isNotFound(error)) return { kind: 'lost', why: `${host.metadata.name} was deleted while being claimed` };
    throw error;
  }
}

/** Applies a spec/metadata fragment to a host this machine holds, conditioned on its resourceVersion. */
export function patchHeldHost(
  hosts: ResourceClient<BareMetalHost>,
  host: BareMetalHost,
  fragment: { spec?: Record<string, unknown>; metadata?: Record<string, unknown> },
  signal?: AbortSignal,
): Promise<BareMetalHost> {
  const patch = { ...fragment, metadata: { ...(fragment.metadata ?? {}), resourceVersion: host.metadata.resourceVersion } };
  return hosts.patch(objectName(host), patch, { type: 'merge', ...(signal ? { signal } : {}) });
}
