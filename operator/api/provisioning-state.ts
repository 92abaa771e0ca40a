import { z } from 'zod';

/**
 * Every value `status.provisioning.state` takes. `''` is a host the controller has not
 * looked at yet; `match profile` and `ready` are legacy states old objects may still hold.
 */
export const PROVISIONING_STATES = [
  '',
  'unmanaged',
  'registering',
  'match profile',
  'inspecting',
  'preparing',
  'ready',
  'available',
  'provisioning',
  'provisioned',
  'externally provisioned',
  'deprovisioning',
  'powering off before delete',
  'deleting',
] as const;

export type ProvisioningState = (typeof PROVISIONING_STATES)[number];

export const provisioningStateSchema = z.enum(PROVISIONING_STATES);

export function isProvisioningState(value: string): value is ProvisioningState {
  return (PROVISIONING_STATES as readonly string[]).includes(value);
}
