// Adopt: take over a node that is already provisioned, without touching its disks, e.g. after
// Ironic lost its database (BMO's Adopt).
import type { AdoptOptions } from '../provisioner.ts';
import { done, failed } from '../result.ts';
import type { ProvisionerResult } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { transient } from './ironic-errors.ts';
import { loadHostNode } from './node-lookup.ts';
import { changeProvisionState, setMaintenance } from './node-writes.ts';

export async function adopt(context: ProvisionerContext, options: AdoptOptions): Promise<ProvisionerResult> {
  const node = await loadHostNode(context, options.host);
  switch (node.provision_state) {
    case 'enroll':
    case 'verifying':
      throw transient('adopt', new Error(`invalid state for adopt: ${node.provision_state}`));
    case 'manageable':
      // Deprovisioning will `provide` this node, which cleans it; adopting would undo that.
      if (options.deprovisioning) return done();
      return changeProvisionState(context, node, { target: 'adopt' });
    case 'adopting':
      return context.delays.short('adoption in progress');
    case 'adopt failed':
      if (options.retryAfterFailure) return changeProvisionState(context, node, { target: 'adopt' });
      return failed(`Host adoption failed: ${node.last_error ?? ''}`);
    case 'active':
      // Maintenance without a fault was set by a person or an earlier deletion, not by Ironic.
      if (node.maintenance && !node.fault) {
        context.log.info('active node was found to be in maintenance, updating');
        const refused = await setMaintenance(context, node, { on: false });
        if (refused !== undefined) return refused;
      }
      return done();
    default:
      return done();
  }
}
