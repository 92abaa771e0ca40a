/** Drops '', 0, false, undefined and [] like Go's `omitempty`; nested objects are kept. */
export function omitEmpty<T extends object>(value: T): T {
  const kept = Object.entries(value).filter(([, field]) => {
    if (field === undefined || field === '' || field === 0 || field === false) return false;
    return !(Array.isArray(field) && field.length === 0);
  });
  return Object.fromEntries(kept) as T;
}
