// PUT states/power with BMO's rules: never while a provision operation runs or the node is locked,
// a 180 s timeout for soft power off, and a lock turns into a retry rather than an error.
import { IronicBadRequestError, IronicConflictError } from '../../../ironic-client/index.ts';
import type { Node, PowerTarget } from '../../../ironic-client/index.ts';
import { TransientProvisionerError } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { writeRefused } from './ironic-errors.ts';
import type { NotDone } from './ironic-errors.ts';

const SOFT_POWER_OFF_TIMEOUT_SECONDS = 180;

export type PowerChange = NotDone | { kind: 'unsupported' };

/** Busy while the change runs (`started` when this call requested it); `unsupported` when the BMC refuses a soft power off (400). */
export async function changePower(context: ProvisionerContext, node: Node, target: PowerTarget): Promise<PowerChange> {
  if (node.target_provision_state) {
    return context.delays.short(`host in state that does not allow power change (${node.provision_state} -> ${node.target_provision_state})`);
  }
  // A conductor holds the node's lock (power sync, a running task): asking now only earns a NodeLocked 409.
  if (node.reservation) return context.delays.short(`node is locked by ${node.reservation}, waiting to ${target}`);
  context.log.info('changing power state', { node: node.uuid, target });
  context.nodes.forget(node);
  try {
    await context.client.nodes.setPowerState(node.uuid, {
      target,
      ...(target === 'soft power off' ? { timeoutSeconds: SOFT_POWER_OFF_TIMEOUT_SECONDS } : {}),
    });
  } catch (error) {
    if (error instanceof IronicBadRequestError && (target === 'soft power off' || target === 'soft rebooting')) return { kind: 'unsupported' };
    if (error instanceof IronicConflictError) {
      throw new TransientProvisionerError(`host is locked, cannot ${target} now: ${error.faultstring}`, {
        cause: error,
        retryAfterMs: context.delays.shortMs(),
      });
    }
    return writeRefused(`failed to ${target} node`, error, context.delays);
  }
  context.nodes.powerChangeAccepted(node, target);
  // Only this call asked for the change: the caller reports it once (BMO's one PowerOn/PowerOff event per request).
  return { ...context.delays.short(`${target} requested`), started: true };
}
