import type { ProvisioningState } from '../../api/provisioning-state.ts';

/** events.k8s.io `action`: what the controller was doing when it recorded the event. */
const ACTIONS: Record<ProvisioningState, string> = {
  '': 'Discover',
  unmanaged: 'Discover',
  registering: 'Register',
  'match profile': 'Register',
  inspecting: 'Inspect',
  preparing: 'Prepare',
  ready: 'Manage',
  available: 'Manage',
  provisioning: 'Provision',
  provisioned: 'Manage',
  'externally provisioned': 'Manage',
  deprovisioning: 'Deprovision',
  'powering off before delete': 'PowerOff',
  deleting: 'Delete',
};

export function eventActionFor(state: ProvisioningState): string {
  return ACTIONS[state];
}
