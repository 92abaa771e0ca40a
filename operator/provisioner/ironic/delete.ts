// Delete and detach: remove the node from Ironic once its state allows it, forcing the way
// with maintenance where Ironic would refuse (BMO's Delete, Detach and realDelete).
import type { Node } from '../../../ironic-client/index.ts';
import type { DeleteOptions } from '../provisioner.ts';
import { done } from '../result.ts';
import type { ProvisionerResult } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { findNode } from './node-lookup.ts';
import { ironicNodeName } from './node-name.ts';
import { changeProvisionState, deleteNode, patchNode, setMaintenance } from './node-writes.ts';
import { NodePatch } from './node-patch.ts';

const BUSY_STATES = new Set(['deploying', 'cleaning', 'inspecting', 'servicing', 'deleting']);
const WAIT_STATES = new Set(['inspect wait', 'clean wait', 'service wait']);

/** The recorded node, else one by the host's node name: a node must not outlive its host. */
async function findHostNode(context: ProvisionerContext, options: DeleteOptions): Promise<Node | undefined> {
  const { host } = options;
  const byId = host.nodeId ? await findNode(context, host.nodeId) : undefined;
  return byId ?? findNode(context, ironicNodeName(host));
}

export async function deleteHostNode(context: ProvisionerContext, options: DeleteOptions & { force: boolean }): Promise<ProvisionerResult> {
  const node = await findHostNode(context, options);
  if (node === undefined) {
    context.log.info('no node found, already deleted');
    return done();
  }
  context.log.info('deleting host', { node: node.uuid, current: node.provision_state, target: node.target_provision_state, force: options.force });
  const state = node.provision_state ?? '';

  if (options.forceRemoval && state !== 'enroll') {
    // Past the deadline Ironic's own way to drop a node whatever it is doing: maintenance lets
    // it delete from any state. A conductor holding the lock (a BMC call that does not return)
    // refuses both with NodeLocked until it lets go, so that is waited out, not given up on.
    if (node.reservation) return context.delays.short(`node is locked by ${node.reservation} (${state}), waiting to force its removal`);
    if (!node.maintenance) {
      const refused = await setMaintenance(context, node, { on: true, reason: 'forcing deletion in baremetal-operator (deletion deadline passed)' });
      if (refused !== undefined) return refused;
    }
    return (await deleteNode(context, node)) ?? done();
  }
  if (state === 'verifying') return context.delays.short('node is verifying, waiting before deletion');
  // Forced, the operation is aborted at its wait state, which the node list does not tell apart.
  if (BUSY_STATES.has(state)) return context.delays.long(`node is ${state}, waiting before deletion`, { awaitsNodeChange: !options.force });
  if (state === 'wait call-back' && options.force && !context.client.features.deployWaitAbort) {
    // Ironic before 1.110 cannot abort a deployment: undeploy and delete from clean wait.
    return changeProvisionState(context, node, { target: 'undeploy' });
  }
  if (state === 'wait call-back' || WAIT_STATES.has(state)) {
    if (options.force) return changeProvisionState(context, node, { target: 'abort' });
    return context.delays.long(`node is ${state}, waiting before deletion`, { awaitsNodeChange: true });
  }

  if (state === 'available' || state === 'manageable') {
    // A stale instance_uuid would survive in Ironic's records of the instance.
    const patched = await patchNode(context, node, new NodePatch().field('instance_uuid', null, node.instance_uuid), 'failed to remove instance UUID');
    if (patched.kind !== 'patched') return patched;
  } else if (state !== 'enroll' && !node.maintenance) {
    // Maintenance lets Ironic delete from any other state (active, failures, holds).
    const refused = await setMaintenance(context, node, { on: true, reason: 'forcing deletion in baremetal-operator' });
    if (refused !== undefined) return refused;
  }
  const refused = await deleteNode(context, node);
  return refused ?? done();
}
