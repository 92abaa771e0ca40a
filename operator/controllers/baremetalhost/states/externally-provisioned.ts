import { complete } from '../action.ts';
import { manageSteadyState } from '../steady-state.ts';
import type { StateHandler } from './handler.ts';

/** Installed by someone else: only power is managed, until spec.externallyProvisioned is cleared. */
export const handleExternallyProvisioned: StateHandler = async (host, context) => {
  if (host.spec.externallyProvisioned) return manageSteadyState(host, context);
  // Record what is deployed so provisioned does not deprovision at once; with nothing, it will.
  if (host.spec.image) host.status.provisioning.image = structuredClone(host.spec.image);
  if (host.spec.customDeploy) host.status.provisioning.customDeploy = structuredClone(host.spec.customDeploy);
  return complete('provisioned');
};
