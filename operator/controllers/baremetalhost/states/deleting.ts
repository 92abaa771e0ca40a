import { TransientProvisionerError } from '../../../provisioner/result.ts';
import { continueAfter, deleted, failed } from '../action.ts';
import { deletionDeadlineExceeded, forcedRemovalExhausted, tooManyFailures } from '../deletion-budget.ts';
import { CLEANUP_SKIPPED_REASON, warning } from '../events.ts';
import { identityOf } from '../host.ts';
import type { Host } from '../host.ts';
import { publish } from '../state-context.ts';
import type { StateContext } from '../state-context.ts';
import type { StateHandler } from './handler.ts';

function giveUpReason(host: Host, context: StateContext): string | undefined {
  const failures = host.status.errorType === 'registration error' ? tooManyFailures(host) : undefined;
  return failures ?? forcedRemovalExhausted(host, context);
}

function releaseAnyway(host: Host, context: StateContext, why: string, detail: string) {
  const nodeId = host.status.provisioning.ID;
  const node = nodeId ? ` node ${nodeId}` : ' its node';
  const message = `giving up on removing the host from the provisioner (${why}: ${detail}); the provisioner may still hold${node} - remove it manually`;
  context.log.error('releasing the host with its node possibly left in the provisioner', { node: nodeId, why, detail });
  publish(context, warning(CLEANUP_SKIPPED_REASON, message));
  return deleted();
}

/**
 * Removes the node from the provisioner; the reconciler then releases Secrets and
 * HardwareData and drops the host finalizer. Bounded: past the deletion deadline the node's
 * removal is forced (whatever the provisioner is doing with it); after repeated failures, or
 * when forcing has not worked by twice the deadline, the host is released anyway with a
 * Warning naming the node that may be left behind.
 */
export const handleDeleting: StateHandler = async (host, context) => {
  const forceRemoval = deletionDeadlineExceeded(host, context) !== undefined;
  try {
    const result = await context.provisioner.delete({ host: identityOf(host), ...(forceRemoval ? { forceRemoval } : {}) });
    if (result.kind === 'done') return deleted();
    if (result.kind === 'busy') {
      // Still working is not failing: only the deadlines cut it short.
      const exhausted = forcedRemovalExhausted(host, context);
      return exhausted ? releaseAnyway(host, context, exhausted, result.reason) : continueAfter(result.afterMs);
    }
    const reason = giveUpReason(host, context);
    return reason ? releaseAnyway(host, context, reason, result.message) : failed('registration error', result.message);
  } catch (error) {
    const reason = giveUpReason(host, context);
    if (error instanceof TransientProvisionerError && reason) return releaseAnyway(host, context, reason, error.message);
    throw error;
  }
};
