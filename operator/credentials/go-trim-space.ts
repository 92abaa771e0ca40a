// Go's `strings.TrimSpace` (Unicode White_Space). JavaScript's trim() also strips U+FEFF and
// misses U+0085, so a password could otherwise differ from what BMO sends to Ironic.
const EDGE_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

export function goTrimSpace(text: string): string {
  return text.replace(EDGE_SPACE, '');
}
