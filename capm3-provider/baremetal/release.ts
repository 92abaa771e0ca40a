import type { BareMetalHost } from '../../operator/api/index.ts';
import { PAUSED_ANNOTATION } from '../../operator/api/index.ts';
import type { KubeObject, ResourceClient } from '../../operator/runtime/index.ts';
import { isNotFound, objectName } from '../../operator/runtime/index.ts';
import { BLOCK_MOVE_ANNOTATION, CAPM3_PAUSE_VALUE, CLUSTER_NAME_LABEL, NODE_REUSE_LABEL } from '../api/index.ts';
import { patchHeldHost } from './claim.ts';
import { hostReleaseSpecChanges } from './host-spec.ts';

export interface ReleaseRequest {
  hosts: ResourceClient<BareMetalHost>;
  secrets: ResourceClient<KubeObject>;
  host: BareMetalHost;
  fastTrack: boolean;
  /** Keep the host booked for the next Machine of this owner (`md-…`/`cp-…`), consumerRef on the Cluster. */
  reuse?: { labelValue: string; cluster: { name: string; namespace: string; apiVersion: string } };
  signal?: AbortSignal;
}

export type ReleaseStep =
  | { kind: 'deprovisioning'; state: string; why: string }
  | { kind: 'released'; host: BareMetalHost; reused: boolean };

/** States in which the host holds nothing of the machine any more (CAPM3's list, plus error-free available). */
const RELEASED_STATES = new Set(['', 'unmanaged', 'registering', 'match profile', 'inspecting', 'ready', 'available']);

/**
 * One step of CAPM3's Delete(): clear what the machine wrote (image, custom deploy, data,
 * power) so BMO deprovisions and cleans; once the host is available again (an externally
 * provisioned one: powered off) give it back: consumerRef, cluster label, our pause and
 * block-move, the BMC Secret's cluster label. The host itself is never deleted.
 */
export async function releaseHostStep(request: ReleaseRequest): Promise<ReleaseStep> {
  let host = request.host;
  const spec = hostReleaseSpecChanges(host, { fastTrack: request.fastTrack });
  if (Object.keys(spec).length) host = await patchHeldHost(request.hosts, host, { spec }, request.signal);

  const state = host.status?.provisioning?.state ?? '';
  if (state === 'externally provisioned') {
    if (host.status?.poweredOn) return { kind: 'deprovisioning', state, why: 'waiting for the externally provisioned host to power off' };
  } else if (!RELEASED_STATES.has(state) || Object.keys(spec).length) {
    return { kind: 'deprovisioning', state, why: `waiting for ${host.metadata.name} to deprovision (now ${state || 'unknown'})` };
  }

  await unlabelSecret(request, host);
  const labels: Record<string, string | null> = { [CLUSTER_NAME_LABEL]: null };
  const annotations: Record<string, string | null> = {};
  if (host.metadata.annotations?.[PAUSED_ANNOTATION] === CAPM3_PAUSE_VALUE) annotations[PAUSED_ANNOTATION] = null;
  // A free host must not hold up the next `clusterctl move` of its namespace (CAPM3 leaves it on).
  if (host.metadata.annotations && BLOCK_MOVE_ANNOTATION in host.metadata.annotations) annotations[BLOCK_MOVE_ANNOTATION] = null;
  let consumerRef: Record<string, string> | null = null;
  if (request.reuse) {
    labels[NODE_REUSE_LABEL] = request.reuse.labelValue;
    consumerRef = { kind: 'Cluster', ...request.reuse.cluster };
  }
  const released = await patchHeldHost(request.hosts, host, { metadata: { labels, annotations }, spec: { consumerRef } }, request.signal);
  return { kind: 'released', host: released, reused: Boolean(request.reuse) };
}

async function unlabelSecret(request: ReleaseRequest, host: BareMetalHost): Promise<void> {
  const name = host.spec.bmc?.credentialsName;
  if (!name) return;
  try {
    await request.secrets.patch({ namespace: host.metadata.namespace, name }, { metadata: { labels: { [CLUSTER_NAME_LABEL]: null } } }, {
      type: 'merge', ...(request.signal ? { signal: request.signal } : {}),
    });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** Labels the host's BMC Secret with the cluster name, so `clusterctl move` carries it along. */
export async function labelSecret(
  secrets: ResourceClient<KubeObject>,
  host: BareMetalHost,
  clusterName: string,
  signal?: AbortSignal,
): Promise<void> {
  const name = host.spec.bmc?.credentialsName;
  if (!name) return;
  try {
    const secret = await secrets.get({ namespace: host.metadata.namespace, name }, signal ? { signal } : {});
    if (secret.metadata.labels?.[CLUSTER_NAME_LABEL] === clusterName) return;
    await secrets.patch(objectName(secret), { metadata: { labels: { [CLUSTER_NAME_LABEL]: clusterName } } }, {
      type: 'merge', ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
