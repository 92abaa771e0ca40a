import type { z } from 'zod';

export type StrictParse<T> = { ok: true; value: T } | { ok: false; detail: string };

/** The first key of `raw` that parsing dropped: a field the schema does not know. */
function firstUnknownKey(raw: unknown, parsed: unknown): string | undefined {
  if (Array.isArray(raw) && Array.isArray(parsed)) {
    for (const [index, item] of raw.entries()) {
      const unknown = firstUnknownKey(item, parsed[index]);
      if (unknown !== undefined) return unknown;
    }
    return undefined;
  }
  if (raw === null || typeof raw !== 'object' || parsed === null || typeof parsed !== 'object') return undefined;
  for (const [key, value] of Object.entries(raw)) {
    if (!(key in parsed)) return key;
    const unknown = firstUnknownKey(value, (parsed as Record<string, unknown>)[key]);
    if (unknown !== undefined) return unknown;
  }
  return undefined;
}

/** JSON text read as Go's decoder with DisallowUnknownFields reads it into a struct. */
export function parseStrictJson<T>(text: string, schema: z.ZodType<T>): StrictParse<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, detail: parsed.error.issues.map((issue) => `${issue.path.join('.') || '<root>'}: ${issue.message}`).join('; ') };
  }
  const unknown = firstUnknownKey(raw, parsed.data);
  if (unknown !== undefined) return { ok: false, detail: `json: unknown field ${JSON.stringify(unknown)}` };
  return { ok: true, value: parsed.data };
}

/** JSON text read loosely (unknown fields ignored), as Go's json.Unmarshal does. */
export function parseLooseJson<T>(text: string, schema: z.ZodType<T>): StrictParse<T> {
  const strict = parseStrictJson(text, schema);
  return strict.ok || strict.detail.startsWith('json: unknown field') ? { ok: true, value: schema.parse(JSON.parse(text)) } : strict;
}
