import type { HostUnderValidation } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

export function firmwareViolations({ host }: HostUnderValidation): Violation[] {
  if (host.spec.firmware === undefined) return [];
  return [{ field: 'spec.firmware', message: 'the Firmware field is no longer supported, use HostFirmwareSettings resource instead' }];
}
