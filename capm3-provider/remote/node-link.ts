import type { KubeObject, ResourceClient } from '../../operator/runtime/index.ts';
import { NODE_UUID_LABEL } from '../api/index.ts';

export interface NodeLinkRequest {
  nodes: ResourceClient<KubeObject>;
  providerID: string;
  hostUID: string;
  /** The host's hostname addresses, for the fallback match on `kubernetes.io/hostname`. */
  hostnames: readonly string[];
  /** False with a cloud provider: it sets Node providerIDs, so only a Node that has ours is linked. */
  setsProviderID: boolean;
  signal?: AbortSignal;
}

export type NodeLinkOutcome =
  | { kind: 'linked'; node: string; changed: boolean }
  | { kind: 'waiting'; why: string }
  | { kind: 'conflict'; why: string };

type NodeObject = KubeObject & { spec?: { providerID?: string } };

/**
 * CAPM3's node linking without a cloud provider: the Node that already carries our
 * providerID; else the one kubelet labelled `metal3.io/uuid=<host UID>`; else the one whose
 * hostname label matches the host. Its `spec.providerID` is set (it is immutable once set, so
 * a Node with another providerID is a conflict). Several candidates are a conflict too.
 */
export async function linkNode(request: NodeLinkRequest): Promise<NodeLinkOutcome> {
  const options = request.signal ? { signal: request.signal } : {};
  const all = (await request.nodes.list(options)).items as NodeObject[];
  const already = all.filter((node) => node.spec?.providerID === request.providerID);
  if (already.length > 1) return { kind: 'conflict', why: `${already.length} Nodes carry providerID ${request.providerID}` };
  if (already.length === 1) return { kind: 'linked', node: already[0]!.metadata.name ?? '', changed: false };
  if (!request.setsProviderID) return { kind: 'waiting', why: `no Node carries providerID ${request.providerID} yet; the cloud controller manager sets it` };

  let candidates = all.filter((node) => node.metadata.labels?.[NODE_UUID_LABEL] === request.hostUID);
  let how = `label ${NODE_UUID_LABEL}=${request.hostUID}`;
  if (candidates.length === 0 && request.hostnames.length) {
    const names = new Set(request.hostnames);
    candidates = all.filter((node) => names.has(node.metadata.labels?.['kubernetes.io/hostname'] ?? ''));
    how = `hostname ${request.hostnames.join(' or ')}`;
  }
  if (candidates.length === 0) return { kind: 'waiting', why: `no Node in the workload cluster has ${how} yet` };
  if (candidates.length > 1) {
    return { kind: 'conflict', why: `${candidates.length} Nodes match ${how}: ${candidates.map((n) => n.metadata.name).join(', ')}` };
  }
  const node = candidates[0]!;
  const current = node.spec?.providerID;
  if (current && current !== request.providerID) {
    return { kind: 'conflict', why: `Node ${node.metadata.name} matches ${how} but already has providerID ${current}` };
  }
  await request.nodes.patch({ name: node.metadata.name ?? '' }, { spec: { providerID: request.providerID } }, { type: 'strategic', ...options });
  return { kind: 'linked', node: node.metadata.name ?? '', changed: true };
}

/** Names of the workload Nodes that carry `providerID`, and of those kubelet labelled with the host's UID. */
export async function nodesFor(
  nodes: ResourceClient<KubeObject>,
  options: { providerID: string; hostUID: string },
  signal?: AbortSignal,
): Promise<{ withProviderID: string[]; withHostLabel: string[] }> {
  const all = (await nodes.list(signal ? { signal } : {})).items as NodeObject[];
  const names = (accept: (node: NodeObject) => boolean) => all.filter(accept).map((node) => node.metadata.name ?? '');
  return {
    withProviderID: names((node) => node.spec?.providerID === options.providerID),
    withHostLabel: names((node) => node.metadata.labels?.[NODE_UUID_LABEL] === options.hostUID),
  };
}
