import type { HostUnderValidation } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

export function powerViolations({ host }: HostUnderValidation): Violation[] {
  if (!host.spec.disablePowerOff || host.spec.online) return [];
  return [{ field: 'spec.disablePowerOff', message: "node can't simultaneously have online set to false and have power off disabled" }];
}
