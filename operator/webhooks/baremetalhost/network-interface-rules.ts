import type { HostUnderValidation } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

/** Each entry selects one NIC, by name or by MAC (not both), and no NIC twice. */
export function networkInterfaceViolations({ host }: HostUnderValidation): Violation[] {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  (host.spec.networkInterfaces ?? []).forEach((entry, index) => {
    const field = `spec.networkInterfaces[${index}]`;
    const name = entry.name ?? '';
    const mac = entry.macAddress ?? '';
    if (name === '' && mac === '') {
      violations.push({ field, message: `networkInterfaces[${index}]: must specify either name or macAddress` });
      return;
    }
    if (name !== '' && mac !== '') {
      violations.push({ field, message: `networkInterfaces[${index}]: name and macAddress are mutually exclusive` });
      return;
    }
    const selector = name || mac;
    if (seen.has(selector.toLowerCase())) {
      violations.push({ field, message: `networkInterfaces[${index}]: duplicate interface selector for ${JSON.stringify(selector)}` });
    }
    seen.add(selector.toLowerCase());
  });
  return violations;
}
