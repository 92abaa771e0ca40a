import type { HostNetworkAttachment } from '../../api/hostnetworkattachment.ts';
import type { Violation } from '../../runtime/index.ts';
import { goAtoi } from './go-atoi.ts';

const VLAN_MIN = 1;
const VLAN_MAX = 4094;

const outOfRange = (id: number) => `VLAN ID ${id} out of range ${VLAN_MIN}-${VLAN_MAX}`;
const inRange = (id: number) => id >= VLAN_MIN && id <= VLAN_MAX;

/** BMO's parseVLANEntry: `start` or `start-end` (split at the first dash), both in range, start below end. */
export function vlanEntryProblem(entry: string): string | undefined {
  const dash = entry.indexOf('-');
  const [before, after] = dash === -1 ? [entry, undefined] : [entry.slice(0, dash), entry.slice(dash + 1)];
  const start = goAtoi(before);
  if (!start.ok) return `invalid VLAN ID: ${start.error}`;
  if (!inRange(start.value)) return outOfRange(start.value);
  if (after === undefined) return undefined;
  const end = goAtoi(after);
  if (!end.ok) return `invalid range end: ${end.error}`;
  if (!inRange(end.value)) return outOfRange(end.value);
  if (start.value >= end.value) return `range start (${start.value}) must be less than end (${end.value})`;
  return undefined;
}

/**
 * BMO's validateAttachment, every error at once: no tagged VLANs in access mode (a rule across
 * fields, which the CRD cannot say), and each allowedVLANs entry a VLAN ID or an increasing range.
 */
export function validateHostNetworkAttachment(attachment: HostNetworkAttachment): Violation[] {
  const allowedVLANs = attachment.spec?.allowedVLANs ?? [];
  const violations: Violation[] = [];
  if (attachment.spec?.mode === 'access' && allowedVLANs.length > 0) {
    violations.push({ field: 'spec.allowedVLANs', message: 'allowedVLANs cannot be specified for access mode' });
  }
  allowedVLANs.forEach((entry, index) => {
    const problem = vlanEntryProblem(entry);
    if (problem !== undefined) {
      violations.push({ field: `spec.allowedVLANs[${index}]`, message: `allowedVLANs[${index}] ${JSON.stringify(entry)}: ${problem}` });
    }
  });
  return violations;
}
