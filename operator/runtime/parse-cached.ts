import type { z } from 'zod';

// Informers replace a cached object on every change and never edit one in place, so a parse keyed
// by the object itself stays right until the object is replaced. Several controllers parse the
// same BareMetalHost on every event; each object is parsed once instead.
const bySchema = new WeakMap<z.ZodType, WeakMap<object, z.ZodSafeParseResult<unknown>>>();

/**
 * `schema.safeParse(object)`, remembered for as long as `object` lives. What it returns is
 * shared: never change it (clone first). Under jest it is frozen, so a test catches any change.
 */
export function safeParseCached<S extends z.ZodType>(schema: S, object: unknown): z.ZodSafeParseResult<z.output<S>> {
  if (typeof object !== 'object' || object === null) return schema.safeParse(object);
  let memo = bySchema.get(schema);
  if (!memo) {
    memo = new WeakMap();
    bySchema.set(schema, memo);
  }
  const known = memo.get(object);
  if (known) return known as z.ZodSafeParseResult<z.output<S>>;
  const result = schema.safeParse(object);
  if (FREEZE_RESULTS && result.success) deepFreeze(result.data);
  memo.set(object, result);
  return result;
}

const FREEZE_RESULTS = process.env.JEST_WORKER_ID !== undefined;

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
