import type { HostUnderValidation } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

/** `deviceName` must name a device directly under /dev/ or /dev/disk/by-path/. */
export function rootDeviceHintsViolations({ host }: HostUnderValidation): Violation[] {
  const deviceName = host.spec.rootDeviceHints?.deviceName ?? '';
  if (deviceName === '') return [];
  const field = 'spec.rootDeviceHints.deviceName';
  if (!deviceName.startsWith('/dev/')) {
    return [{ field, message: `device name of root device hint must be a /dev/ path, not "${deviceName}"` }];
  }
  let rest = deviceName.slice('/dev/'.length);
  if (rest.startsWith('disk/by-path/')) rest = rest.slice('disk/by-path/'.length);
  if (rest.includes('/')) {
    return [{ field, message: `device name of root device hint must be path in /dev/ or /dev/disk/by-path/, not "${deviceName}"` }];
  }
  return [];
}
