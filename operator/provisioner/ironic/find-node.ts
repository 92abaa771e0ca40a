// BMO's findExistingHost: the host's node by UUID, then by name, then by the boot MAC's port,
// so a restart or a lost status never leads to a second node for one host.
import type { Node, PortSubset } from '../../../ironic-client/index.ts';
import type { HostIdentity } from '../provisioner.ts';
import type { ProvisionerContext } from './context.ts';
import { isNotFound, transient } from './ironic-errors.ts';
import { findNode } from './node-lookup.ts';
import { candidateNodeNames } from './node-name.ts';

/** The fields a MAC look-up asks for. */
type MacPort = PortSubset<'uuid' | 'node_uuid' | 'address'>;

export type ExistingNode =
  | { kind: 'found'; node: Node }
  | { kind: 'absent' }
  /** The boot MAC belongs to a node of another host. */
  | { kind: 'mac-conflict'; message: string };

export async function findExistingNode(
  context: ProvisionerContext,
  options: { host: HostIdentity; bootMacAddress?: string },
): Promise<ExistingNode> {
  const { host } = options;
  if (host.nodeId) {
    const node = await findNode(context, host.nodeId);
    if (node !== undefined) return { kind: 'found', node };
    context.log.info('node recorded for the host is gone from ironic', { node: host.nodeId });
  }
  const names = candidateNodeNames(host);
  if (context.nodeNames.rulesOut(names)) {
    context.log.debug('the node sweep\'s last list has no node by the host\'s names', { names });
    if (!options.bootMacAddress) return { kind: 'absent' };
    return nodeOwningMac(context, options.bootMacAddress, await portsWithMac(context, options.bootMacAddress));
  }
  // The current name first: after the pass that created the node, before its UUID is recorded,
  // that is where it is. Not there, the old name and the boot MAC are asked at once (BMO asks one
  // after the other; the answers are the same, and they are read in BMO's order), so a new host's
  // first pass waits two round trips to Ironic instead of three.
  const [current, ...older] = names;
  const byCurrentName = await findNode(context, current!);
  if (byCurrentName !== undefined) return { kind: 'found', node: byCurrentName };
  const [byOlderName, byMac] = await Promise.all([
    Promise.allSettled(older.map((name) => findNode(context, name))),
    options.bootMacAddress ? portsWithMac(context, options.bootMacAddress).then(
      (ports) => ({ ok: true as const, ports }),
      (error: unknown) => ({ ok: false as const, error }),
    ) : undefined,
  ]);
  for (const [index, result] of byOlderName.entries()) {
    if (result.status === 'rejected') throw result.reason;
    if (result.value !== undefined) {
      context.log.debug('found existing node by its old name', { name: older[index], node: result.value.uuid });
      return { kind: 'found', node: result.value };
    }
  }
  if (byMac === undefined) return { kind: 'absent' };
  if (!byMac.ok) throw byMac.error;
  return nodeOwningMac(context, options.bootMacAddress!, byMac.ports);
}

async function portsWithMac(context: ProvisionerContext, mac: string): Promise<MacPort[]> {
  try {
    return await context.client.ports.listAll({ address: mac, fields: ['uuid', 'node_uuid', 'address'] });
  } catch (error) {
    // BMO carries on as if there were no port; creating a node could then duplicate one.
    throw transient(`failed to look up ports with MAC ${mac}`, error);
  }
}

async function nodeOwningMac(context: ProvisionerContext, mac: string, ports: readonly MacPort[]): Promise<ExistingNode> {
  const port = ports[0];
  if (port === undefined) return { kind: 'absent' };
  let node: Node;
  try {
    node = await context.client.nodes.get(port.node_uuid);
  } catch (error) {
    const why = isNotFound(error) ? "doesn't exist" : 'could not be read';
    throw transient(`port ${mac} exists but linked node ${port.node_uuid} ${why}`, error);
  }
  // A named node would have been found by name above, so it belongs to another host.
  if (node.name) return { kind: 'mac-conflict', message: `MAC address ${mac} conflicts with existing node ${node.name}` };
  context.nodes.remember(node);
  return { kind: 'found', node };
}
