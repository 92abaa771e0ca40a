import type { ProvisioningState } from '../../api/provisioning-state.ts';
import type { Action } from './action.ts';
import { delayed, update } from './action.ts';
import { clearError } from './host-status.ts';
import type { Host } from './host.ts';
import { identityOf, stateOf } from './host.ts';
import type { StateContext } from './state-context.ts';
import { note } from './state-context.ts';

/** Entering (or sitting in) these states takes a PROVISIONING_LIMIT slot. */
export const CAPACITY_LIMITED_STATES: readonly ProvisioningState[] = ['inspecting', 'provisioning', 'deprovisioning'];

/** `delayed` when the provisioner has no free slot for work in `state`, else undefined. */
export async function ensureCapacity(host: Host, context: StateContext, state: ProvisioningState): Promise<Action | undefined> {
  const bmc = context.credentials?.access;
  if (await context.provisioner.hasCapacity({ host: identityOf(host), ...(bmc ? { bmc } : {}) })) return undefined;
  note(context, { metric: 'delayed', deprovisioning: state === 'deprovisioning' });
  host.status.operationalStatus = 'delayed';
  return delayed();
}

/** BMO's `checkDelayedHost`: a delayed host waits for a slot; a host in a limited state re-checks it. */
export async function checkDelayedHost(host: Host, context: StateContext): Promise<Action | undefined> {
  if (host.status.operationalStatus === 'delayed') {
    const gate = await ensureCapacity(host, context, stateOf(host));
    if (gate) return gate;
    clearError(host.status);
    return update();
  }
  if (CAPACITY_LIMITED_STATES.includes(stateOf(host))) return ensureCapacity(host, context, stateOf(host));
  return undefined;
}
