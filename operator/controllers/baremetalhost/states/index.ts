import type { ProvisioningState } from '../../../api/provisioning-state.ts';
import { handleAvailable } from './available.ts';
import { handleDeleting } from './deleting.ts';
import { handleDeprovisioning } from './deprovisioning.ts';
import { handleExternallyProvisioned } from './externally-provisioned.ts';
import type { StateHandler } from './handler.ts';
import { handleInspecting } from './inspecting.ts';
import { handleMatchProfile } from './match-profile.ts';
import { handleNone } from './none.ts';
import { handlePoweringOffBeforeDelete } from './powering-off-before-delete.ts';
import { handlePreparing } from './preparing.ts';
import { handleProvisioned } from './provisioned.ts';
import { handleProvisioning } from './provisioning.ts';
import { handleRegistering } from './registering.ts';
import { handleUnmanaged } from './unmanaged.ts';

export type { StateHandler } from './handler.ts';

/** One handler per state; `ready` is the legacy name of `available`. */
export const STATE_HANDLERS: Readonly<Record<ProvisioningState, StateHandler>> = {
  '': handleNone,
  unmanaged: handleUnmanaged,
  registering: handleRegistering,
  'match profile': handleMatchProfile,
  inspecting: handleInspecting,
  preparing: handlePreparing,
  ready: handleAvailable,
  available: handleAvailable,
  provisioning: handleProvisioning,
  provisioned: handleProvisioned,
  'externally provisioned': handleExternallyProvisioned,
  deprovisioning: handleDeprovisioning,
  'powering off before delete': handlePoweringOffBeforeDelete,
  deleting: handleDeleting,
};
