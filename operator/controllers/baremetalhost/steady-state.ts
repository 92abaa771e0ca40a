import type { Action } from './action.ts';
import { failed } from './action.ts';
import type { Host } from './host.ts';
import { identityOf } from './host.ts';
import { manageHostPower } from './power.ts';
import type { StateContext } from './state-context.ts';
import { stillBusy } from './states/handler.ts';

/**
 * Provisioned hosts: make sure the provisioner still knows the node as deployed (it may
 * have lost its database) without touching the disks, then manage power.
 */
export async function manageSteadyState(host: Host, context: StateContext): Promise<Action> {
  const adoption = await adoptDeployedHost(host, context);
  return adoption ?? manageHostPower(host, context);
}

/** Adopts the node; undefined when that is settled and the caller may go on. */
export async function adoptDeployedHost(host: Host, context: StateContext, options: { deprovisioning: boolean } = { deprovisioning: false }): Promise<Action | undefined> {
  const result = await context.provisioner.adopt({
    host: identityOf(host),
    retryAfterFailure: host.status.errorType === 'provisioned registration error',
    deprovisioning: options.deprovisioning,
  });
  if (result.kind === 'failed') return failed('provisioned registration error', result.message);
  if (result.kind === 'busy') return stillBusy(host, result);
  return undefined;
}
