import type { z } from 'zod';

/** Ironic returned inventory data we cannot read; `field` names the first offending path. */
export class InventoryError extends Error {
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`invalid Ironic inventory: ${field}: ${problem}`);
    this.name = 'InventoryError';
    this.field = field;
  }
}

/** `inventory.disks[2].size` from zod's `['inventory', 'disks', 2, 'size']`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '(root)';
  return path.reduce<string>((joined, key) => {
    if (typeof key === 'number') return `${joined}[${key}]`;
    return joined === '' ? String(key) : `${joined}.${String(key)}`;
  }, '');
}

export function inventoryErrorFrom(error: z.ZodError): InventoryError {
  const issue = error.issues[0];
  if (issue === undefined) return new InventoryError('(root)', 'unreadable');
  // zod's messages name the expected type, never the received value.
  return new InventoryError(fieldPath(issue.path), issue.message);
}
