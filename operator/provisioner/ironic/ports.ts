// Ports for the boot MAC (PXE) and for NICs seen by an earlier inspection, so a node that
// Ironic lost along with its database gets them back (BMO's createPortsForNode).
import { IronicConflictError } from '../../../ironic-client/index.ts';
import type { Node } from '../../../ironic-client/index.ts';
import type { ProvisionerContext } from './context.ts';
import { transient } from './ironic-errors.ts';

export interface PortsOptions {
  bootMacAddress?: string;
  knownMacAddresses: readonly string[];
  /** Just created by us: it has no ports yet, so skip listing them. */
  freshNode: boolean;
}

/** Wanted MACs (lower case, as Ironic stores them) and whether each is the PXE port. */
function wantedPorts(options: PortsOptions): Map<string, boolean> {
  const wanted = new Map<string, boolean>();
  for (const mac of options.knownMacAddresses) if (mac) wanted.set(mac.toLowerCase(), false);
  if (options.bootMacAddress) wanted.set(options.bootMacAddress.toLowerCase(), true);
  return wanted;
}

export async function ensurePorts(context: ProvisionerContext, node: Node, options: PortsOptions): Promise<void> {
  const wanted = wantedPorts(options);
  if (wanted.size === 0) return;
  const known = context.knownPorts.get(node.uuid);
  if (known !== undefined && [...wanted.keys()].every((mac) => known.has(mac))) return;

  const existing = new Set(known);
  if (!options.freshNode) for (const mac of await listedMacs(context, node, { noRecord: known === undefined })) existing.add(mac);
  for (const [mac, pxe] of wanted) {
    if (existing.has(mac)) continue;
    await createPort(context, node, mac, pxe);
    existing.add(mac);
  }
  context.knownPorts.set(node.uuid, existing);
}

/**
 * The node's MACs as Ironic lists them. A record that is missing or expired is re-checked against
 * the list every host shares; a record that lacks a MAC found since (inspection may just have made
 * its port) asks for the node's own ports, as a list begun earlier could miss it.
 */
async function listedMacs(context: ProvisionerContext, node: Node, options: { noRecord: boolean }): Promise<Iterable<string>> {
  try {
    if (options.noRecord && context.portSnapshot !== undefined) return await context.portSnapshot.macsOf(node.uuid);
    const ports = await context.client.ports.listAll({ nodeUuid: node.uuid, fields: ['uuid', 'address', 'node_uuid'] });
    return ports.map((port) => port.address.toLowerCase());
  } catch (error) {
    throw transient(`failed to list ports of node ${node.uuid}`, error);
  }
}

async function createPort(context: ProvisionerContext, node: Node, mac: string, pxe: boolean): Promise<void> {
  context.log.info('creating ironic port for node', { node: node.uuid, mac, pxe });
  try {
    await context.client.ports.create({ node_uuid: node.uuid, address: mac, pxe_enabled: pxe });
  } catch (error) {
    if (error instanceof IronicConflictError && !error.locked) await explainTakenMac(context, node, mac, error);
    else throw transient(`failed to create ironic port for node ${node.uuid}, MAC: ${mac}`, error);
  }
}

/** A 409 on a port: fine when the port is already ours, otherwise another node owns the MAC. */
async function explainTakenMac(context: ProvisionerContext, node: Node, mac: string, conflict: IronicConflictError): Promise<void> {
  let owners: string[];
  try {
    owners = (await context.client.ports.listAll({ address: mac, fields: ['uuid', 'node_uuid', 'address'] })).map((port) => port.node_uuid);
  } catch (error) {
    throw transient(`failed to look up the port with MAC ${mac}`, error);
  }
  const other = owners.find((owner) => owner !== node.uuid);
  if (other !== undefined) throw transient(`port belongs to another node ${other}, MAC: ${mac} can't register for node ${node.uuid}`, conflict);
  if (owners.length === 0) throw transient(`failed to create ironic port for node ${node.uuid}, MAC: ${mac}`, conflict);
}
