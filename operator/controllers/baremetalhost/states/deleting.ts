import { TransientProvisionerError } from '../../../provisioner/result.ts';
import { continueAfter, deleted, failed } from '../action.ts';
import { deletionDeadlineExceeded, tooManyFailures } from '../deletion-budget.ts';
import { CLEANUP_SKIPPED_REASON, warning } from '../events.ts';
import { identityOf } from '../host.ts';
import type { Host } from '../host.ts';
import { publish } from '../state-context.ts';
import type { StateContext } from '../state-context.ts';
import type { StateHandler } from './handler.ts';

function giveUpReason(host: Host, context: StateContext): string | undefined {
  const failures = host.status.errorType === 'registration error' ? tooManyFailures(host) : undefined;
  return failures ?? deletionDeadlineExceeded(host, context);
}

function releaseAnyway(host: Host, context: StateContext, why: string, detail: string) {
  const node = host.status.provisioning.ID ? ` node ${host.status.provisioning.ID}` : ' its node';
  publish(context, warning(CLEANUP_SKIPPED_REASON, `giving up on removing the host from the provisioner (${why}: ${detail}); the provisioner may still hold${node} - remove it manually`));
  return deleted();
}

/**
 * Removes the node from the provisioner; the reconciler then releases Secrets and
 * HardwareData and drops the host finalizer. Bounded: after repeated failures or past the
 * deletion deadline the host is released even if the provisioner cannot be reached.
 */
export const handleDeleting: StateHandler = async (host, context) => {
  try {
    const result = await context.provisioner.delete({ host: identityOf(host) });
    if (result.kind === 'done') return deleted();
    if (result.kind === 'busy') {
      // Still working is not failing: only the deadline cuts it short.
      const late = deletionDeadlineExceeded(host, context);
      return late ? releaseAnyway(host, context, late, result.reason) : continueAfter(result.afterMs);
    }
    const reason = giveUpReason(host, context);
    return reason ? releaseAnyway(host, context, reason, result.message) : failed('registration error', result.message);
  } catch (error) {
    const reason = giveUpReason(host, context);
    if (error instanceof TransientProvisionerError && reason) return releaseAnyway(host, context, reason, error.message);
    throw error;
  }
};
