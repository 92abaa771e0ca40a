import { complete } from '../action.ts';
import { inspectionDisabled } from '../host.ts';
import type { StateHandler } from './handler.ts';

/**
 * Reaching the handler means registration (run before every handler) succeeded with the
 * current credentials; the host never comes back here, even when they change later.
 */
export const handleRegistering: StateHandler = async (host) => {
  host.status.errorCount = 0;
  if (host.spec.externallyProvisioned) return complete('externally provisioned');
  if (inspectionDisabled(host)) return complete('preparing');
  return complete('inspecting');
};
