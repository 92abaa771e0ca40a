// Prepare: manual cleaning for RAID, BIOS settings and firmware updates when anything needs
// changing, otherwise done at once (BMO's Prepare and startManualCleaning).
import type { CleanStep, Node } from '../../../ironic-client/index.ts';
import type { PrepareOptions } from '../provisioner.ts';
import { done, failed } from '../result.ts';
import type { ProvisionerResult } from '../result.ts';
import type { ProvisionerContext } from './context.ts';
import { firmwareSteps, withUnappliedSettings } from './firmware-steps.ts';
import { transient, writeRefused } from './ironic-errors.ts';
import { NodePatch } from './node-patch.ts';
import { loadHostNode } from './node-lookup.ts';
import { changeProvisionState, patchNode, retryFromCleanFailed } from './node-writes.ts';
import type { RaidResult } from './raid.ts';
import { raidCleanSteps, raidInterfaceFor, targetLogicalDisks } from './raid.ts';

/** The BMC's RAID interface decides; the node's is the best guess without it. */
function bmcRaidInterface(node: Node, options: PrepareOptions): string {
  return options.bmc?.interfaces.raid || node.raid_interface || '';
}

function manualCleanSteps(node: Node, options: PrepareOptions): RaidResult<CleanStep[]> {
  const raid = raidCleanSteps(bmcRaidInterface(node, options), options.raid, options.actualRaid);
  if (!raid.ok) return raid;
  return { ok: true, value: [...raid.value, ...firmwareSteps(options)] };
}

/** raid_interface and target_raid_config, which create_configuration reads. */
async function setTargetRaid(context: ProvisionerContext, node: Node, options: PrepareOptions): Promise<ProvisionerResult | { kind: 'ready'; node: Node }> {
  const iface = raidInterfaceFor(bmcRaidInterface(node, options), options.raid, options.actualRaid);
  if (!iface.ok) return failed(iface.message);
  const disks = targetLogicalDisks(options.raid, { haveRootDeviceHints: options.rootDeviceHints !== undefined });
  if (!disks.ok) return failed(disks.message);
  if (disks.value.length === 0) return { kind: 'ready', node };
  const patched = await patchNode(context, node, new NodePatch().field('raid_interface', iface.value, node.raid_interface), 'failed to set the RAID interface');
  if (patched.kind !== 'patched') return patched;
  context.nodes.forget(node);
  try {
    await context.client.nodes.setTargetRaidConfig(node.uuid, { logical_disks: disks.value });
  } catch (error) {
    return writeRefused('failed to set the target RAID configuration', error, context.delays);
  }
  return { kind: 'ready', node: patched.node };
}

export async function prepare(context: ProvisionerContext, requested: PrepareOptions): Promise<ProvisionerResult> {
  const node = await loadHostNode(context, requested.host);
  const options = node.provision_state === 'available' || node.provision_state === 'manageable' ? await withUnappliedSettings(context, node, requested) : requested;
  switch (node.provision_state) {
    case 'available': {
      const steps = manualCleanSteps(node, options);
      if (!steps.ok) return failed(steps.message);
      if (steps.value.length === 0) return done();
      context.log.info('the node needs to be reconfigured', { cleanSteps: steps.value });
      return changeProvisionState(context, node, { target: 'manage' });
    }
    case 'manageable': {
      const steps = manualCleanSteps(node, options);
      if (!steps.ok) return failed(steps.message);
      if (steps.value.length === 0) return done();
      const target = await setTargetRaid(context, node, options);
      if (target.kind !== 'ready') return target;
      context.log.info('remove existing configuration and set new configuration', { cleanSteps: steps.value });
      return changeProvisionState(context, target.node, { target: 'clean', cleanSteps: steps.value }, { started: true });
    }
    case 'clean failed':
      // The caller clears the saved settings before retrying, so the steps are rebuilt from scratch.
      if (!options.retryAfterFailure) return failed(node.last_error || 'Cleaning failed');
      return retryFromCleanFailed(context, node);
    case 'cleaning':
    case 'clean wait':
      return context.delays.long('waiting for manual cleaning to finish', { awaitsNodeChange: true });
    default:
      throw transient('prepare', new Error(`have unexpected ironic node state ${node.provision_state}`));
  }
}
