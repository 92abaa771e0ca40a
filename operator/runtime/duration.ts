/** A duration given either as milliseconds or as a Go-style string such as `'1m30s'` or `'500ms'`. */
export type Duration = number | string;

// Go takes both micro signs, U+00B5 and the Greek mu U+03BC. They are written as escapes: one
// character outside ASCII makes V8 hold a whole bundle's source as two-byte text (hack/build).
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  '\u00b5s': 1e-3,
  '\u03bcs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d+)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/y;

/**
 * Parses a Go `time.Duration` string (what controller-runtime flags accept) into
 * milliseconds. `'0'` is allowed without a unit, as in Go. Throws on anything else.
 */
export function parseDuration(text: string): number {
  const input = text.trim();
  if (input === '0') return 0;
  if (input === '') throw new Error('empty duration');
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < input.length) {
    const start = PART.lastIndex;
    const match = PART.exec(input);
    if (!match || match.index !== start) {
      throw new Error(`invalid duration "${text}" (use a number with a unit, e.g. 500ms, 10s, 1m30s, 2h)`);
    }
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  }
  return total;
}

/** Milliseconds for a {@link Duration}; numbers are taken as milliseconds already. */
export function toMilliseconds(duration: Duration): number {
  const ms = typeof duration === 'number' ? duration : parseDuration(duration);
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`invalid duration ${String(duration)}`);
  return ms;
}
