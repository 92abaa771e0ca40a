import type { ProvisioningState } from '../../api/provisioning-state.ts';
import { bmcAccessFor } from '../../bmc/index.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import type { Action } from './action.ts';
import { delayed } from './action.ts';
import { clearError } from './host-status.ts';
import type { Host } from './host.ts';
import { stateOf } from './host.ts';
import type { StateContext } from './state-context.ts';
import { note } from './state-context.ts';

/** Entering (or sitting in) these states takes a PROVISIONING_LIMIT slot. */
export const CAPACITY_LIMITED_STATES: readonly ProvisioningState[] = ['inspecting', 'provisioning', 'deprovisioning'];

/**
 * `delayed` when no PROVISIONING_LIMIT slot is free for work in `state`, else undefined.
 * Virtual media needs no DHCP/PXE on the provisioning network and is never limited.
 */
export function ensureCapacity(host: Host, context: StateContext, state: ProvisioningState): Action | undefined {
  if (context.credentials?.access.supportsIsoPreprovisioningImage) return undefined;
  if (context.takeProvisioningSlot()) return undefined;
  note(context, { metric: 'delayed', deprovisioning: state === 'deprovisioning' });
  host.status.operationalStatus = 'delayed';
  return delayed();
}

/** BMO's `checkDelayedHost`: a delayed host waits for a slot; a host in a limited state re-checks it. */
export function checkDelayedHost(host: Host, context: StateContext): Action | undefined {
  if (host.status.operationalStatus === 'delayed') {
    const gate = ensureCapacity(host, context, stateOf(host));
    if (gate) return gate;
    // Go on in this pass, which holds the slot until its status is saved: the delay lifted and
    // the state it waited for are one status write. Saving the lifted delay alone let the slot
    // go before the next pass, so a waiting host took it, lost it and waited again, over and over.
    clearError(host.status);
    return undefined;
  }
  if (CAPACITY_LIMITED_STATES.includes(stateOf(host))) return ensureCapacity(host, context, stateOf(host));
  return undefined;
}

/** Whether a host, as stored, holds a slot: in a limited state, not waiting for one, not on virtual media. */
export function holdsProvisioningSlot(host: KubeObject): boolean {
  const status = (host.status ?? {}) as { operationalStatus?: string; provisioning?: { state?: string } };
  if (status.operationalStatus === 'delayed') return false;
  if (!CAPACITY_LIMITED_STATES.includes((status.provisioning?.state ?? '') as ProvisioningState)) return false;
  const address = (host.spec as { bmc?: { address?: string } } | undefined)?.bmc?.address ?? '';
  const bmc = bmcAccessFor({ address });
  return !(bmc.ok && bmc.access.supportsIsoPreprovisioningImage);
}
