function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const absent = (value: unknown): boolean => value === undefined || value === null;

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => (absent(a[key]) && absent(b[key])) || sameJson(a[key], b[key]));
  }
  return false;
}

/**
 * The RFC 7386 JSON merge patch that turns `before` into `after`, or undefined when they
 * already match. `null` and missing fields are the same thing here (a merge patch cannot
 * store a null), so Go-style `end: null` never produces an endless diff. Arrays are
 * replaced whole, as merge patches do.
 */
export function createMergePatch(before: unknown, after: unknown): unknown {
  if (isPlainObject(before) && isPlainObject(after)) {
    const patch: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(after)) {
      if (absent(value)) continue;
      if (absent(before[key])) patch[key] = value;
      else {
        const nested = createMergePatch(before[key], value);
        if (nested !== undefined) patch[key] = nested;
      }
    }
    for (const [key, value] of Object.entries(before)) {
      if (!absent(value) && absent(after[key])) patch[key] = null;
    }
    return Object.keys(patch).length > 0 ? patch : undefined;
  }
  if (sameJson(before, after)) return undefined;
  return absent(after) ? null : after;
}

/** The dotted paths a merge patch sets or clears, down to `depth` levels: what a write changed, for the log. */
export function changedFields(patch: unknown, depth = 3): string[] {
  if (!isPlainObject(patch)) return [];
  return Object.entries(patch).flatMap(([key, value]) => {
    const nested = depth > 1 ? changedFields(value, depth - 1) : [];
    return nested.length > 0 ? nested.map((path) => `${key}.${path}`) : [key];
  });
}
