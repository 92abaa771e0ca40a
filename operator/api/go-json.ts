/**
 * JSON already parsed, reshaped as Go's json.Unmarshal reads it into a flat struct with these
 * fields: `null` (the whole value or a field) leaves it unset, and a key matches its field in
 * any case (`Mode` is `mode`). Anything but an object is returned as it is, for the schema to refuse.
 */
export function asGoStructFields(raw: unknown, fields: readonly string[]): unknown {
  if (raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const fieldFor = (key: string) => (fields.includes(key) ? key : fields.find((field) => field.toLowerCase() === key.toLowerCase()) ?? key);
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== null).map(([key, value]) => [fieldFor(key), value]));
}
