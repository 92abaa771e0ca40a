import type { ErrorType } from '../../api/error-type.ts';

/** The component name BMO's events carry; kept so existing alerting and dashboards match. */
export const EVENT_SOURCE = 'metal3-baremetal-controller';

/** An event a handler asks for; the reconciler records it after the status is saved. */
export interface HostEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export const normal = (reason: string, message: string): HostEvent => ({ type: 'Normal', reason, message });
export const warning = (reason: string, message: string): HostEvent => ({ type: 'Warning', reason, message });

/** BMO publishes one event per error type, named after it. */
export const ERROR_EVENT_REASONS: Record<ErrorType, string> = {
  'provisioned registration error': 'ProvisionedRegistrationError',
  'registration error': 'RegistrationError',
  'inspection error': 'InspectionError',
  'preparation error': 'PreparationError',
  'provisioning error': 'ProvisioningError',
  'power management error': 'PowerManagementError',
  'detach error': 'DetachError',
  'servicing error': 'ServicingError',
};

/**
 * Our one addition to BMO's reasons: a deletion step was skipped after bounded retries
 * or the deletion deadline (BMO only logs this), so users see why cleanup did not happen.
 */
export const CLEANUP_SKIPPED_REASON = 'CleanupSkipped';
