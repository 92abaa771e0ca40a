// Deprovision: undeploy, let automated cleaning run (if enabled) and end in available (BMO's
// Deprovision).
import type { DeprovisionOptions } from '../provisioner.ts';
import { done, failed } from '../result.ts';
import type { ProvisionerResult } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { transient } from './ironic-errors.ts';
import { NodePatch } from './node-patch.ts';
import { loadHostNode } from './node-lookup.ts';
import { changeProvisionState, patchNode, retryFromCleanFailed } from './node-writes.ts';

export async function deprovision(context: ProvisionerContext, options: DeprovisionOptions): Promise<ProvisionerResult> {
  const node = await loadHostNode(context, options.host);
  context.log.info('deprovisioning host', { node: node.uuid, current: node.provision_state, target: node.target_provision_state });

  switch (node.provision_state) {
    case 'error':
      if (!options.retryAfterFailure) return failed(node.last_error || 'Deprovisioning failed');
      context.log.info('retrying deprovisioning');
      return changeProvisionState(context, node, { target: 'undeploy' });
    case 'clean failed':
      if (!options.retryAfterFailure) return failed(`Cleaning failed: ${node.last_error ?? ''}`);
      context.log.info('retrying cleaning');
      return retryFromCleanFailed(context, node);
    case 'manageable':
      // After a clean failure, or a re-registration: provide runs automated cleaning again.
      return changeProvisionState(context, node, { target: 'provide' });
    case 'available':
      return done();
    case 'deleting':
    case 'cleaning':
    case 'clean wait':
      return context.delays.long(`deprovisioning in progress (${node.provision_state})`, { awaitsNodeChange: true });
    case 'deploying':
      // A deployment cannot be interrupted; wait for it to wait or finish.
      return context.delays.long('previous deploy running');
    case 'active':
    case 'deploy failed':
    case 'wait call-back': {
      // automated_clean must match the host before undeploying, or cleaning runs (or not) by surprise.
      const patch = new NodePatch().field('automated_clean', options.automatedCleaningMode !== 'disabled', node.automated_clean);
      const patched = await patchNode(context, node, patch, 'failed to update automatedClean');
      if (patched.kind !== 'patched') return patched;
      return changeProvisionState(context, patched.node, { target: 'undeploy' });
    }
    default:
      throw transient('deprovision', new Error(`unhandled ironic state ${node.provision_state}`));
  }
}
