import { PROVISIONING_STATES } from '../../api/provisioning-state.ts';
import type { ProvisioningState } from '../../api/provisioning-state.ts';

/** One edge of the state machine: the only moves `complete(next)` may make. */
export interface Transition {
  from: readonly ProvisioningState[];
  to: ProvisioningState;
  when: string;
  /** Taken only once `metadata.deletionTimestamp` is set. */
  deleting?: boolean;
}

const AVAILABLE = ['available', 'ready'] as const;
const ALL_BUT_DELETING = PROVISIONING_STATES.filter((state) => state !== 'deleting');

/** BMO's transitions (host_state_machine.go), auditable in one screen and rendered into the docs. */
export const TRANSITIONS: readonly Transition[] = [
  { from: [''], to: 'registering', when: 'spec.bmc has an address or credentials' },
  { from: [''], to: 'unmanaged', when: 'no BMC details (operationalStatus discovered)' },
  { from: ['unmanaged'], to: 'registering', when: 'BMC details added' },
  { from: ['registering'], to: 'externally provisioned', when: 'registered and spec.externallyProvisioned' },
  { from: ['registering'], to: 'preparing', when: 'registered and inspection disabled' },
  { from: ['registering'], to: 'inspecting', when: 'registered' },
  { from: ['match profile'], to: 'preparing', when: 'legacy state, passes straight on' },
  { from: ['inspecting'], to: 'preparing', when: 'hardware inspected (HardwareData stored) or inspection disabled' },
  { from: ['preparing'], to: 'available', when: 'RAID, root device hints and firmware settings applied, or nothing to do' },
  { from: AVAILABLE, to: 'externally provisioned', when: 'spec.externallyProvisioned set' },
  { from: AVAILABLE, to: 'inspecting', when: 'inspect.metal3.io annotation asks for re-inspection' },
  { from: AVAILABLE, to: 'preparing', when: 'RAID or root device hints changed, or valid HostFirmwareSettings changes' },
  { from: AVAILABLE, to: 'provisioning', when: 'online with a new image or custom deploy, under the retry cap' },
  { from: ['provisioning'], to: 'provisioned', when: 'image deployed' },
  { from: ['provisioning'], to: 'deprovisioning', when: 'deploy failed (provisioningFailCount + 1) or image changed/removed' },
  { from: ['provisioned'], to: 'deprovisioning', when: 'image or custom deploy changed or removed' },
  { from: ['externally provisioned'], to: 'provisioned', when: 'spec.externallyProvisioned cleared' },
  { from: ['deprovisioning'], to: 'available', when: 'disks cleaned (per automatedCleaningMode)' },
  { from: ['deprovisioning'], to: 'powering off before delete', when: 'cleaned, or gave up (errorCount > 3 or deletion deadline)', deleting: true },
  { from: ['deprovisioning'], to: 'deleting', when: 'no provisioner node and no credentials', deleting: true },
  { from: ['powering off before delete'], to: 'deleting', when: 'powered off, disablePowerOff, gave up, or no node and no credentials', deleting: true },
  // Deletion routing (checkInitiateDelete), taken before the state handler runs.
  { from: ['', 'unmanaged', 'registering'], to: 'deleting', when: 'deletion requested: nothing to clean up', deleting: true },
  { from: ['provisioning', 'provisioned'], to: 'deprovisioning', when: 'deletion requested', deleting: true },
  {
    from: ['inspecting', 'preparing', ...AVAILABLE, 'externally provisioned', 'match profile'],
    to: 'powering off before delete',
    when: 'deletion requested',
    deleting: true,
  },
  { from: ['deprovisioning', 'powering off before delete'], to: 'deleting', when: 'deletion requested, registration error with errorCount > 3', deleting: true },
  { from: ALL_BUT_DELETING, to: 'deleting', when: 'deletion requested while detached', deleting: true },
];

export function isAllowedTransition(from: ProvisioningState, to: ProvisioningState, options: { deleting: boolean }): boolean {
  return TRANSITIONS.some((t) => t.to === to && t.from.includes(from) && (options.deleting || !t.deleting));
}

const nodeId = (state: ProvisioningState): string => (state === '' ? 'none' : state.replace(/ /g, '_'));
const label = (state: ProvisioningState): string => (state === '' ? '(none)' : state);

/** A Mermaid state diagram of TRANSITIONS, for the docs. */
export function stateDiagram(): string {
  const lines = ['stateDiagram-v2'];
  for (const state of PROVISIONING_STATES) lines.push(`  ${nodeId(state)}: ${label(state)}`);
  for (const t of TRANSITIONS) {
    for (const from of t.from) lines.push(`  ${nodeId(from)} --> ${nodeId(t.to)}: ${t.deleting ? '[deleting] ' : ''}${t.when}`);
  }
  return lines.join('\n');
}
