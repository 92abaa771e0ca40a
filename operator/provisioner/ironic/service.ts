// Service: BIOS settings and firmware updates on a deployed node, through Ironic servicing
// (`service` with service steps), without re-imaging it (BMO's Service).
import type { Node } from '../../../ironic-client/index.ts';
import type { ServiceOptions } from '../provisioner.ts';
import { done, failed } from '../result.ts';
import type { ProvisionerResult } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { firmwareSteps, withUnappliedSettings } from './firmware-steps.ts';
import { transient } from './ironic-errors.ts';
import { loadHostNode } from './node-lookup.ts';
import { changeProvisionState, setMaintenance } from './node-writes.ts';

/** The user withdrew every change while Ironic holds the node in servicing: back out. */
function abortServicing(context: ProvisionerContext, node: Node): Promise<ProvisionerResult> {
  context.log.info('aborting servicing because firmware spec was removed', { node: node.uuid, state: node.provision_state });
  return changeProvisionState(context, node, { target: 'abort' }, { started: true });
}

/** From an active node: starts servicing with what is not applied yet, or is done when nothing is left. */
async function startServicing(context: ProvisionerContext, node: Node, options: ServiceOptions): Promise<ProvisionerResult> {
  const steps = firmwareSteps(await withUnappliedSettings(context, node, options));
  if (steps.length === 0) {
    context.log.info('servicing finished on the host');
    return done();
  }
  context.log.info('remove existing configuration and set new configuration', { serviceSteps: steps });
  return changeProvisionState(context, node, { target: 'service', serviceSteps: steps }, { started: true });
}

export async function service(context: ProvisionerContext, options: ServiceOptions): Promise<ProvisionerResult> {
  const node = await loadHostNode(context, options.host);
  switch (node.provision_state) {
    case 'service failed':
      if (!options.hasFirmwareSpec) return abortServicing(context, node);
      if (!options.retryAfterFailure) return failed(node.last_error || 'Servicing failed');
      if (node.maintenance) {
        context.log.info('clearing maintenance flag after a servicing failure');
        const refused = await setMaintenance(context, node, { on: false });
        return refused ?? context.delays.short('maintenance cleared after a servicing failure');
      }
      context.log.info('restarting servicing because of a previous failure');
      return startServicing(context, node, options);
    case 'active':
      if (options.changesPending) return startServicing(context, node, options);
      context.log.info('servicing finished on the host');
      return done();
    case 'servicing':
      return context.delays.long('waiting for host to finish servicing');
    case 'service wait':
      if (!options.hasFirmwareSpec) return abortServicing(context, node);
      return context.delays.long('waiting for host to become active');
    default:
      throw transient('service', new Error(`have unexpected ironic node state ${node.provision_state}`));
  }
}
