import { goUnescape } from './go-url-escape.ts';

/**
 * Go's `url.ParseQuery`: values per key in order, plus whether any pair was malformed
 * (a `;` separator or a bad escape). Go still returns the well-formed pairs in that case.
 */
export function parseGoQuery(rawQuery: string): { values: Map<string, string[]>; malformed: boolean } {
  const values = new Map<string, string[]>();
  let malformed = false;
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    if (pair.includes(';')) {
      malformed = true;
      continue;
    }
    const equals = pair.indexOf('=');
    const key = goUnescape(equals < 0 ? pair : pair.slice(0, equals), 'queryComponent');
    const value = goUnescape(equals < 0 ? '' : pair.slice(equals + 1), 'queryComponent');
    if (!key.ok || !value.ok) {
      malformed = true;
      continue;
    }
    values.set(key.value, [...(values.get(key.value) ?? []), value.value]);
  }
  return { values, malformed };
}
