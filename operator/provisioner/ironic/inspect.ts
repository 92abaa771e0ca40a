// Inspect: run or poll in-band (agent) or out-of-band (fast) inspection and read the inventory
// into HardwareDetails (BMO's InspectHardware).
import type { Node } from '../../../ironic-client/index.ts';
import type { HardwareDetails } from '../../api/hardware-details.ts';
import { nodeCapabilities } from '../../configdrive/index.ts';
import { hardwareDetailsFromInventory } from '../../hardware/index.ts';
import type { InspectOptions } from '../provisioner.ts';
import { done, failed } from '../result.ts';
import type { ProvisionerResult } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { isNotFound, transient } from './ironic-errors.ts';
import { NodePatch } from './node-patch.ts';
import type { DesiredValues } from './node-patch.ts';
import { loadHostNode } from './node-lookup.ts';
import { changeProvisionState, patchNode } from './node-writes.ts';

type InspectResult = ProvisionerResult<{ hardware: HardwareDetails }>;

/** agent, or the BMC's out-of-band interface for fast inspection ('' when it has none). */
function inspectInterface(options: InspectOptions): string {
  if (options.mode !== 'fast') return 'agent';
  return options.bmc ? options.bmc.interfaces.inspect : 'redfish';
}

async function startInspection(context: ProvisionerContext, node: Node, options: InspectOptions): Promise<InspectResult> {
  const iface = inspectInterface(options);
  if (iface === '') return failed(`BMC driver ${options.bmc?.type ?? node.driver} does not support fast (out-of-band) inspection`);
  const properties: DesiredValues = {};
  if (options.bootMode) properties['capabilities'] = nodeCapabilities({ bootMode: options.bootMode, existing: node.properties?.['capabilities'] });
  if (options.architecture) properties['cpu_arch'] = options.architecture;
  const patch = new NodePatch().section('properties', properties, node.properties).field('inspect_interface', iface, node.inspect_interface);
  const patched = await patchNode(context, node, patch, 'failed to update host settings in ironic');
  if (patched.kind !== 'patched') return patched;
  context.log.info('starting new hardware inspection', { inspectInterface: iface });
  return changeProvisionState(context, patched.node, { target: 'inspect' }, { started: true, pollsItself: options.forceReboot });
}

/** The stored inventory as HardwareDetails; starts inspection when Ironic has none yet. */
async function collectHardware(context: ProvisionerContext, node: Node, options: InspectOptions): Promise<InspectResult> {
  // Ironic records when an inspection finished; without one there is no inventory to ask for.
  if (!node.inspection_finished_at) return startInspection(context, node, options);
  let inventory;
  try {
    inventory = await context.client.nodes.getInventory(node.uuid);
  } catch (error) {
    if (isNotFound(error)) return startInspection(context, node, options);
    throw transient('failed to retrieve hardware introspection data', error);
  }
  const details = hardwareDetailsFromInventory(inventory);
  if (!details.ok) return failed(`failed to read the inspection data: ${details.error.message}`);
  for (const warning of details.warnings) context.log.warn('inspection data incomplete', { warning });
  context.log.info('inspection finished successfully');
  return done({ hardware: details.hardware });
}

export async function inspect(context: ProvisionerContext, options: InspectOptions): Promise<InspectResult> {
  const node = await loadHostNode(context, options.host);
  let { refresh, retryAfterFailure } = options;
  // Inspection is aborted on purpose (new preprovisioning image, forced reboot): just restart it.
  if (node.provision_state === 'inspect failed' && node.last_error?.includes('aborted')) {
    refresh = true;
    retryAfterFailure = true;
  }
  switch (node.provision_state) {
    case 'available':
      return changeProvisionState(context, node, { target: 'manage' });
    case 'inspect wait':
      if (options.forceReboot) {
        context.log.info('aborting inspection to force reboot of preprovisioning image');
        return changeProvisionState(context, node, { target: 'abort' }, { started: true });
      }
      return inspectionInProgress(context, options);
    case 'inspecting':
      return inspectionInProgress(context, options);
    case 'inspect failed':
      if (!retryAfterFailure) return failed(node.last_error || 'Inspection failed');
      return startInspection(context, node, options);
    case 'manageable':
      if (refresh) return startInspection(context, node, options);
      return collectHardware(context, node, options);
    default:
      throw transient('inspection', new Error(`unexpected provision state ${node.provision_state}`));
  }
}

function inspectionInProgress(context: ProvisionerContext, options: InspectOptions): InspectResult {
  // Out-of-band inspection takes seconds; the agent has to boot first. A forced reboot aborts
  // at inspect wait, which the node list does not tell apart from inspecting.
  if (options.mode === 'fast') return context.delays.short('inspection in progress');
  return context.delays.long('inspection in progress', { awaitsNodeChange: !options.forceReboot });
}
