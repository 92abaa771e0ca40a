import { complete } from '../action.ts';
import { provisioningCancelled } from '../host.ts';
import { manageSteadyState } from '../steady-state.ts';
import type { StateHandler } from './handler.ts';

/** Deployed: stays here, managing power, until the image or custom deploy changes. */
export const handleProvisioned: StateHandler = async (host, context) =>
  provisioningCancelled(host) ? complete('deprovisioning') : manageSteadyState(host, context);
