import type { CPU } from './hardware-details.ts';
import type { InventoryCpu } from './inventory-schema.ts';
import { omitEmpty } from './omit-empty.ts';

// Go's Sscanf("%f") reads a leading number and ignores the rest; anything else is 0.
const LEADING_FLOAT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/;

/** MHz from IPA's frequency string, rounded half away from zero like Go's math.Round. */
export function clockMegahertz(frequency: string): number {
  const match = LEADING_FLOAT.exec(frequency);
  if (match === null) return 0;
  const value = Number.parseFloat(match[0]);
  if (!Number.isFinite(value)) return 0;
  return Math.sign(value) * Math.round(Math.abs(value));
}

export function cpuDetails(cpu: InventoryCpu): CPU {
  return omitEmpty<CPU>({
    arch: cpu.architecture,
    model: cpu.model_name,
    clockMegahertz: clockMegahertz(cpu.frequency),
    // Sorted so repeated inspections of the same host compare equal.
    flags: [...cpu.flags].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    count: cpu.count,
  });
}
