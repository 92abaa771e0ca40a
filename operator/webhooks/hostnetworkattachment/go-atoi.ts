// Go's strconv.Atoi on a 64-bit platform, so a VLAN entry that is not a number is refused in
// BMO's words: an optional sign and decimal digits, within int64, else a *NumError whose text
// is `strconv.Atoi: parsing "<input>": invalid syntax` or `...: value out of range`.

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export type AtoiResult = { ok: true; value: number } | { ok: false; error: string };

/** Go quotes the input with %q; for what the CRD lets through (digits and dashes) that is JSON's quoting. */
const numError = (input: string, reason: 'invalid syntax' | 'value out of range'): AtoiResult =>
  ({ ok: false, error: `strconv.Atoi: parsing ${JSON.stringify(input)}: ${reason}` });

export function goAtoi(input: string): AtoiResult {
  if (!/^[+-]?\d+$/.test(input)) return numError(input, 'invalid syntax');
  const value = BigInt(input);
  if (value < INT64_MIN || value > INT64_MAX) return numError(input, 'value out of range');
  // Beyond 2^53 the number is not exact, but it is only ever compared with 1..4094.
  return { ok: true, value: Number(value) };
}
