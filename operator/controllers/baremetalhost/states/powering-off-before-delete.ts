import { NeedsRegistrationError } from '../../../provisioner/result.ts';
import { complete, failed } from '../action.ts';
import { identityOf } from '../host.ts';
import { normal } from '../events.ts';
import { note, publish } from '../state-context.ts';
import type { Host } from '../host.ts';
import type { StateHandler } from './handler.ts';
import { stillBusy } from './handler.ts';

function poweredOff(host: Host) {
  host.status.errorCount = 0;
  host.status.poweredOn = false;
  return complete('deleting');
}

/** Hard power-off, interrupting inspection or cleaning, so a deleted host does not keep running. */
export const handlePoweringOffBeforeDelete: StateHandler = async (host, context) => {
  if (host.spec.disablePowerOff) return poweredOff(host);
  try {
    const result = await context.provisioner.powerOff({
      host: identityOf(host),
      mode: 'hard',
      force: true,
      automatedCleaningMode: host.spec.automatedCleaningMode,
    });
    if (result.kind === 'failed') return failed('power management error', result.message);
    if (result.kind === 'busy') {
      if (result.started) publish(context, normal('PowerOff', 'Host powered off'));
      return stillBusy(host, result);
    }
    return poweredOff(host);
  } catch (error) {
    if (error instanceof NeedsRegistrationError && !context.credentials) {
      note(context, { metric: 'deleteWithoutPoweringOff' });
      return complete('deleting');
    }
    throw error;
  }
};
