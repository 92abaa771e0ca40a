// Power on and off, busy until Ironic reports the wanted power state (BMO's PowerOn/PowerOff).
import type { PowerOptions } from '../provisioner.ts';
import { done, failed } from '../result.ts';
import type { ProvisionerResult } from '../result.ts';
import { abortForPowerOff } from './abort-for-power-off.ts';
import type { ProvisionerContext } from './context.ts';
import { loadHostNode } from './node-lookup.ts';
import { changePower } from './power-change.ts';

/** What a soft power off that ended with the node still on says when Ironic's error is gone. */
export const SOFT_POWER_OFF_ENDED_ON = 'the soft power off ended with the node still powered on (Ironic\'s power state sync has since cleared its error)';

export async function powerOn(context: ProvisionerContext, options: PowerOptions): Promise<ProvisionerResult> {
  const node = await loadHostNode(context, options.host);
  // Whatever became of a soft power off, the host wants power now.
  context.softPowerOffs.delete(node.uuid);
  if (node.power_state === 'power on') return done();
  if (node.target_power_state === 'power on') return context.delays.short('waiting for power on');
  // A failed earlier attempt shows in last_error; only a forced change tries again at once.
  if (node.last_error && !options.force) return failed(`PowerOn operation failed: ${node.last_error}`);
  const change = await changePower(context, node, 'power on');
  if (change.kind === 'unsupported') return failed('power on is not supported by the BMC');
  return change;
}

export async function powerOff(context: ProvisionerContext, options: PowerOptions): Promise<ProvisionerResult> {
  const node = await loadHostNode(context, options.host);
  const blocked = await abortForPowerOff(context, node, options.automatedCleaningMode);
  if (blocked !== undefined) return blocked;
  if (node.power_state === 'power off') {
    context.softPowerOffs.delete(node.uuid);
    return done();
  }

  const target = node.target_power_state;
  if (target === 'power off' || target === 'soft power off') return context.delays.short('waiting for power off');
  const softRequested = context.softPowerOffs.delete(node.uuid);
  // An error left by an aborted operation is expected here and does not block powering off.
  if (!target && node.last_error && !options.force && !node.last_error.includes('aborted')) return failed(node.last_error);
  if (softRequested && !options.force) return failed(SOFT_POWER_OFF_ENDED_ON);

  // A host that must not be powered off (disable_power_off) is rebooted instead.
  const keepsPower = node.disable_power_off === true;
  if (options.mode === 'soft' && !options.force) {
    const soft = await changePower(context, node, keepsPower ? 'soft rebooting' : 'soft power off');
    if (soft.kind === 'busy' && soft.started && !keepsPower) context.softPowerOffs.add(node.uuid);
    if (soft.kind !== 'unsupported') return soft;
    context.log.info('soft power off is unsupported on BMC, continuing with hard power off');
  }
  const hard = await changePower(context, node, keepsPower ? 'rebooting' : 'power off');
  if (hard.kind === 'unsupported') return failed('power off is not supported by the BMC');
  return hard;
}
