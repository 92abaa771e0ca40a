// Reading a host's node: from the short-lived cache or a power change's end the sweep saw, else one GET.
import type { Node } from '../../../ironic-client/index.ts';
import type { HostIdentity } from '../provisioner.ts';
import { NeedsRegistrationError } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { isNotFound, transient } from './ironic-errors.ts';
import { ironicNodeName } from './node-name.ts';

/** The node by UUID or name; throws the client's errors (IronicNotFoundError when absent). */
export async function getNode(context: ProvisionerContext, ident: string): Promise<Node> {
  const cached = context.nodes.get(ident) ?? context.nodes.takeSettled(ident);
  if (cached !== undefined) return cached;
  const node = await context.client.nodes.get(ident);
  context.nodes.remember(node);
  return node;
}

/** The node by UUID or name, or undefined when Ironic has none. */
export async function findNode(context: ProvisionerContext, ident: string): Promise<Node | undefined> {
  try {
    return await getNode(context, ident);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw transient(`failed to look up node ${ident}`, error);
  }
}

/**
 * The node a verb works on: by the recorded UUID, or by the host's node name when none is
 * recorded yet. A missing node means registration must run again (BMO's ErrNeedsRegistration).
 */
export async function loadHostNode(context: ProvisionerContext, host: HostIdentity): Promise<Node> {
  const ident = host.nodeId || ironicNodeName(host);
  const node = await findNode(context, ident);
  if (node === undefined) throw new NeedsRegistrationError(`node ${ident} not found in Ironic`);
  return node;
}
