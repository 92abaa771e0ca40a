/**
 * Finds regex syntax that JavaScript accepts but the API server's RE2 (Go regexp) does not:
 * lookaround and backreferences. Returns a reason, or undefined when the pattern is safe.
 */
export function re2Incompatibility(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    const next = pattern[i + 1] ?? '';
    if (char === '\\') {
      if (/[1-9]/.test(next)) return `backreference \\${next}`;
      if (next === 'k' && pattern[i + 2] === '<') return 'named backreference \\k<…>';
      i++; // whatever was escaped is a literal or a class, never special here
      continue;
    }
    if (char === '(' && next === '?') {
      const rest = pattern.slice(i + 2, i + 4);
      if (rest.startsWith('=') || rest.startsWith('!')) return 'lookahead (?= / (?!';
      if (rest === '<=' || rest === '<!') return 'lookbehind (?<= / (?<!';
    }
  }
  return undefined;
}
