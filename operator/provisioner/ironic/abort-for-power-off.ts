// Before powering off (above all while deleting), inspection and cleaning that wait for the
// ramdisk are aborted; running ones are waited for (BMO's abortInspectionOrCleaning).
import type { AutomatedCleaningMode } from '../../api/baremetalhost-enums.ts';
import type { Node } from '../../../ironic-client/index.ts';
import type { ProvisionerContext } from './context.ts';
import type { NotDone } from './ironic-errors.ts';
import { changeProvisionState } from './node-writes.ts';

/** undefined when power may change now. */
export async function abortForPowerOff(
  context: ProvisionerContext,
  node: Node,
  automatedCleaningMode: AutomatedCleaningMode | undefined,
): Promise<NotDone | undefined> {
  // Manual cleaning targets manageable; automated cleaning targets available.
  const manualCleaning = node.target_provision_state === 'manageable';
  const cleaningAbortable = manualCleaning || automatedCleaningMode === 'disabled';
  switch (node.provision_state) {
    case 'inspect wait':
      context.log.info('aborting inspection to allow power off');
      return changeProvisionState(context, node, { target: 'abort' });
    case 'inspecting':
      return context.delays.long('inspection in progress, waiting for inspect wait before aborting');
    case 'inspect failed':
      // An aborted inspection keeps its target; manage clears it so power may change.
      if (node.target_provision_state) return changeProvisionState(context, node, { target: 'manage' });
      return undefined;
    case 'clean wait':
      if (cleaningAbortable) {
        context.log.info('aborting cleaning to allow power off', { manualCleaning });
        return changeProvisionState(context, node, { target: 'abort' });
      }
      return context.delays.long('automated cleaning in progress, waiting for it to complete', { awaitsNodeChange: true });
    case 'cleaning':
      // Cleaning that may be aborted is aborted at its wait, which the node list does not tell apart.
      return context.delays.long('cleaning in progress, waiting before power off', { awaitsNodeChange: !cleaningAbortable });
    default:
      return undefined;
  }
}
