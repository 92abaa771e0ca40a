// Writes to a node. Each one drops the cached copy, so the next read sees Ironic's view.
import { IronicConflictError } from '../../../ironic-client/index.ts';
import type { Node, ProvisionStateOptions } from '../../../ironic-client/index.ts';
import type { ProvisionerContext } from './context.ts';
import { isNotFound, writeRefused } from './ironic-errors.ts';
import type { NotDone } from './ironic-errors.ts';
import { runningAfterRequest } from './node-digests.ts';
import type { NodePatch } from './node-patch.ts';

export type PatchOutcome = { kind: 'patched'; node: Node } | NotDone;

/** Applies the patch when it has operations; the node Ironic returns replaces the cached one. */
export async function patchNode(context: ProvisionerContext, node: Node, patch: NodePatch, what: string): Promise<PatchOutcome> {
  if (patch.empty) return { kind: 'patched', node };
  context.log.info('updating node settings in ironic', { node: node.uuid, paths: patch.paths() });
  try {
    // Ironic answers with the node as saved under this PATCH's own lock: that `reservation` is
    // gone once the answer arrives, and must not hold back the change that follows.
    const updated = { ...(await context.client.nodes.update(node.uuid, patch.operations)), reservation: null };
    context.nodes.remember(updated);
    return { kind: 'patched', node: updated };
  } catch (error) {
    context.nodes.forget(node);
    return writeRefused(what, error, context.delays);
  }
}

/** Sets or clears maintenance; undefined when done, else why not. */
export async function setMaintenance(
  context: ProvisionerContext,
  node: Node,
  options: { on: boolean; reason?: string },
): Promise<NotDone | undefined> {
  context.log.info('updating maintenance in ironic', { node: node.uuid, maintenance: options.on, reason: options.reason });
  context.nodes.forget(node);
  try {
    if (options.on) await context.client.nodes.setMaintenance(node.uuid, options.reason !== undefined ? { reason: options.reason } : {});
    else await context.client.nodes.unsetMaintenance(node.uuid);
    return undefined;
  } catch (error) {
    return writeRefused(`failed to ${options.on ? 'set' : 'clear'} maintenance`, error, context.delays);
  }
}

/**
 * BMO's tryChangeNodeProvisionState: wait while Ironic reports a fault or a conductor holds the
 * node's lock (`reservation`: power sync, a heartbeat or the last change still running; asking
 * then only earns a NodeLocked 409, which the client would retry into), lift maintenance first
 * (provision changes are refused in maintenance), then ask. The result is what the caller
 * returns. `report.started` marks the accepted change as the start of the caller's operation
 * (BMO reports it for inspection and manual cleaning, so the caller records what it asked for).
 */
export async function changeProvisionState(
  context: ProvisionerContext,
  node: Node,
  options: ProvisionStateOptions,
  report: {
    started?: boolean;
    /** The caller waits for a state the node list does not tell apart from the operation (a forced reboot's wait state). */
    pollsItself?: boolean;
  } = {},
): Promise<NotDone> {
  const what = `failed to change provisioning state to "${options.target}"`;
  if (node.fault) return context.delays.long(`node has a fault (${node.fault}), waiting`, { awaitsNodeChange: true });
  if (node.reservation) return context.delays.short(`node is locked by ${node.reservation}, waiting to change provisioning state to "${options.target}"`);
  if (node.maintenance) {
    context.log.info('removing maintenance before changing provision state', { reason: node.maintenance_reason });
    const refused = await setMaintenance(context, node, { on: false });
    if (refused !== undefined) return refused;
  }
  context.log.info('changing provisioning state', {
    node: node.uuid,
    current: node.provision_state,
    existingTarget: node.target_provision_state,
    newTarget: options.target,
  });
  context.nodes.forget(node);
  const running = runningAfterRequest(node, options.target);
  try {
    await context.client.nodes.setProvisionState(node.uuid, options);
    context.firmwareRefreshes.requested(node, options.target);
  } catch (error) {
    return writeRefused(what, error, context.delays);
  }
  // The list then shows the operation running, which wakes no one, and then its end, which does;
  // an end the list alone can tell stands in for the read that confirms it.
  if (running !== undefined && report.pollsItself) context.nodes.recordExpected(running);
  else if (running !== undefined) context.nodes.provisionChangeAccepted(running, options.target);
  return context.delays.short(`"${options.target}" requested (node was ${node.provision_state})`, {
    ...(report.started ? { started: true } : {}),
    awaitsNodeChange: running !== undefined && !report.pollsItself,
  });
}

/** DELETE; undefined when the node is gone (also when it already was), else why not. */
export async function deleteNode(context: ProvisionerContext, node: Node): Promise<NotDone | undefined> {
  context.nodes.drop(node);
  context.knownPorts.delete(node.uuid);
  context.firmwareRefreshes.drop(node.uuid);
  context.softPowerOffs.delete(node.uuid);
  context.sentCredentials.forget(node.uuid);
  try {
    await context.client.nodes.delete(node.uuid);
    context.log.info('node removed from ironic', { node: node.uuid });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    // Any conflict, a lock included, clears once the current operation ends (BMO: retry in 3 s).
    if (error instanceof IronicConflictError) return context.delays.short(`could not remove host, busy (${error.faultstring})`);
    return writeRefused('failed to remove host', error, context.delays);
  }
  return undefined;
}

/**
 * Out of `clean failed`: Ironic put the node in maintenance with a `clean failure` fault;
 * clearing maintenance clears the fault too, then `manage` makes it manageable again.
 */
export async function retryFromCleanFailed(context: ProvisionerContext, node: Node): Promise<NotDone> {
  if (node.maintenance) {
    context.log.info('clearing maintenance flag', { reason: node.maintenance_reason });
    const refused = await setMaintenance(context, node, { on: false });
    if (refused !== undefined) return refused;
  }
  return changeProvisionState(context, { ...node, maintenance: false, fault: null }, { target: 'manage' });
}
