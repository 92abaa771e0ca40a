import type { z } from 'zod';

// Informers replace a cached object on every change and never edit one in place, so a parse keyed
// by the object itself stays right until the object is replaced. Several controllers parse the
// same BareMetalHost on every event; each object is parsed once instead.
//
// Only the parses of the most recently used objects are kept, one version per object name.
// Keeping one for every cached object doubled the cache (a parse is a second tree of objects):
// 11 of the 58 MiB of live heap at 1000 fixture hosts (test/bench/README.md, "Strings and parses
// held once"). Keyed by name, a replaced version goes as soon as the new one is parsed: a
// FirmwareSchema owned by 1000 hosts is replaced with every batch of owners added. A miss costs
// one parse.
export const PARSES_KEPT_PER_SCHEMA = 256;

interface Memo {
  object: object;
  result: z.ZodSafeParseResult<unknown>;
}

const bySchema = new WeakMap<z.ZodType, Map<string, Memo>>();

/**
 * `schema.safeParse(object)`, remembered while `object` is the newest version parsed of its
 * name and that name is among the last PARSES_KEPT_PER_SCHEMA used. What it returns is shared:
 * never change it (clone first). Under jest it is frozen, so a test catches any change.
 */
export function safeParseCached<S extends z.ZodType>(schema: S, object: unknown): z.ZodSafeParseResult<z.output<S>> {
  const name = nameOf(object);
  if (name === undefined) return schema.safeParse(object);
  let memos = bySchema.get(schema);
  if (!memos) {
    memos = new Map();
    bySchema.set(schema, memos);
  }
  const known = memos.get(name);
  // A Map iterates in insertion order: re-inserting keeps the least recently used first.
  memos.delete(name);
  if (known !== undefined && known.object === object) {
    memos.set(name, known);
    return known.result as z.ZodSafeParseResult<z.output<S>>;
  }
  const result = schema.safeParse(object);
  if (FREEZE_RESULTS && result.success) deepFreeze(result.data);
  memos.set(name, { object: object as object, result });
  if (memos.size > PARSES_KEPT_PER_SCHEMA) memos.delete(memos.keys().next().value as string);
  return result;
}

/** `namespace/name` of an API object; undefined for anything else, which is not remembered. */
function nameOf(object: unknown): string | undefined {
  if (typeof object !== 'object' || object === null) return undefined;
  const metadata = (object as { metadata?: { name?: unknown; namespace?: unknown } }).metadata;
  if (typeof metadata?.name !== 'string') return undefined;
  return typeof metadata.namespace === 'string' ? `${metadata.namespace}/${metadata.name}` : metadata.name;
}

const FREEZE_RESULTS = process.env.JEST_WORKER_ID !== undefined;

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
