// Percent-decoding with the per-component rules of Go's net/url, so addresses that BMO
// rejects are rejected here too.

/** The URL components whose decoding rules differ. */
export type EscapeMode = 'path' | 'host' | 'userPassword' | 'queryComponent' | 'fragment';

export type UnescapeResult = { ok: true; value: string } | { ok: false; reason: string };

const HOST_SUB_DELIMS = new Set("!$&'()*+,;=:[]<>\"");

// charCodeAt past the end gives NaN, which fails every comparison.
function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

function isAlphaNumeric(char: string): boolean {
  return /^[A-Za-z0-9]$/.test(char);
}

/** Go's `shouldEscape(c, encodeHost)` for one ASCII character. */
function hostCharNeedsEscape(char: string): boolean {
  if (isAlphaNumeric(char) || '-_.~'.includes(char)) return false;
  return !HOST_SUB_DELIMS.has(char);
}

function quote(text: string): string {
  return JSON.stringify(text);
}

/** Go's `url.unescape`: validates every escape, then decodes the bytes as UTF-8. */
export function goUnescape(text: string, mode: EscapeMode): UnescapeResult {
  for (let i = 0; i < text.length; ) {
    const char = text[i] as string;
    if (char === '%') {
      if (!isHex(text.charCodeAt(i + 1)) || !isHex(text.charCodeAt(i + 2))) {
        return { ok: false, reason: `invalid URL escape ${quote(text.slice(i, i + 3))}` };
      }
      // In a host only non-ASCII bytes may be escaped (plus %25 for IPv6 zones).
      const escape = text.slice(i, i + 3);
      if (mode === 'host' && Number.parseInt(text[i + 1] as string, 16) < 8 && escape !== '%25') {
        return { ok: false, reason: `invalid URL escape ${quote(escape)}` };
      }
      i += 3;
      continue;
    }
    if (mode === 'host' && text.charCodeAt(i) < 0x80 && hostCharNeedsEscape(char)) {
      return { ok: false, reason: `invalid character ${quote(char)} in host name` };
    }
    i += 1;
  }
  const spaced = mode === 'queryComponent' ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return { ok: true, value: spaced };
  const bytes: number[] = [];
  for (let i = 0; i < spaced.length; ) {
    if (spaced[i] === '%') {
      bytes.push(Number.parseInt(spaced.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const codePoint = spaced.codePointAt(i) as number;
      const char = String.fromCodePoint(codePoint);
      bytes.push(...Buffer.from(char, 'utf8'));
      i += char.length;
    }
  }
  return { ok: true, value: Buffer.from(bytes).toString('utf8') };
}
