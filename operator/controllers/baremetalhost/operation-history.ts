import type { BareMetalHostStatus } from '../../api/baremetalhost.ts';
import type { ProvisioningState } from '../../api/provisioning-state.ts';
import { formatTime } from '../../runtime/conditions.ts';
import type { MetricNote, Operation } from './state-context.ts';

const OPERATION_OF_STATE: Partial<Record<ProvisioningState, Operation>> = {
  registering: 'register',
  inspecting: 'inspect',
  provisioning: 'provision',
  deprovisioning: 'deprovision',
};

export function operationOf(state: ProvisioningState): Operation | undefined {
  return OPERATION_OF_STATE[state];
}

/** Starts timing the state's operation unless one is already running. */
export function recordOperationStart(status: BareMetalHostStatus, state: ProvisioningState, now: Date): void {
  const operation = operationOf(state);
  if (!operation) return;
  const current = status.operationHistory?.[operation];
  if (current?.start && !current.end) return;
  status.operationHistory = { ...status.operationHistory, [operation]: { start: formatTime(now), end: null } };
}

/** Ends the running operation of the state; returns its duration metric, or undefined if none was running. */
export function recordOperationEnd(status: BareMetalHostStatus, state: ProvisioningState, now: Date): MetricNote | undefined {
  const operation = operationOf(state);
  if (!operation) return undefined;
  const current = status.operationHistory?.[operation];
  if (!current?.start || current.end) return undefined;
  status.operationHistory = { ...status.operationHistory, [operation]: { start: current.start, end: formatTime(now) } };
  const seconds = Math.max(0, (now.getTime() - Date.parse(current.start)) / 1000);
  return { metric: 'operationDuration', operation, seconds };
}
