// The subset of Go's `url.Parse` that BMO's BMC address handling depends on. Reproducing its
// quirks (opaque `ipmi:host`, "first path segment cannot contain colon", lower-cased scheme)
// keeps accept/reject decisions identical to BMO's.
import { isIPv6 } from 'node:net';
import { goUnescape } from './go-url-escape.ts';

/** The fields of Go's `url.URL` that BMC parsing reads; `host` keeps port and IPv6 brackets. */
export interface GoURL {
  scheme: string;
  opaque: string;
  host: string;
  path: string;
  rawQuery: string;
}

export type GoURLResult = { ok: true; url: GoURL } | { ok: false; reason: string };

const USERINFO_CHARS = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function fail(raw: string, reason: string): GoURLResult {
  return { ok: false, reason: `parse ${JSON.stringify(raw)}: ${reason}` };
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Splits a leading `scheme:`; an invalid first character means "no scheme", not an error. */
function splitScheme(raw: string): { scheme: string; rest: string } | { error: string } {
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i] as string;
    if (/[A-Za-z]/.test(char)) continue;
    if (/[0-9+\-.]/.test(char)) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (char === ':') {
      if (i === 0) return { error: 'missing protocol scheme' };
      return { scheme: raw.slice(0, i), rest: raw.slice(i + 1) };
    }
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

function parseHost(host: string): { ok: true; host: string } | { ok: false; reason: string } {
  let portPart = '';
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) return { ok: false, reason: "missing ']' in host" };
    portPart = host.slice(close + 1);
    // Recent Go releases accept only IPv6 (optionally with a zone) between brackets.
    const literal = host.slice(1, close).split('%25', 1)[0] ?? '';
    if (!isIPv6(literal)) return { ok: false, reason: `invalid IP-literal ${JSON.stringify(host.slice(0, close + 1))}` };
  } else {
    const colon = host.lastIndexOf(':');
    if (colon !== -1) portPart = host.slice(colon);
  }
  if (portPart !== '' && !/^:[0-9]*$/.test(portPart)) {
    return { ok: false, reason: `invalid port ${JSON.stringify(portPart)} after host` };
  }
  const decoded = goUnescape(host, 'host');
  return decoded.ok ? { ok: true, host: decoded.value } : decoded;
}

function parseAuthority(authority: string): { ok: true; host: string } | { ok: false; reason: string } {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (!host.ok || at < 0) return host;
  const userinfo = authority.slice(0, at);
  if (!USERINFO_CHARS.test(userinfo)) return { ok: false, reason: 'net/url: invalid userinfo' };
  // Credentials in the URL are ignored by BMO, but malformed escapes in them still fail.
  const colon = userinfo.indexOf(':');
  const parts = colon < 0 ? [userinfo] : [userinfo.slice(0, colon), userinfo.slice(colon + 1)];
  for (const part of parts) {
    const decoded = goUnescape(part, 'userPassword');
    if (!decoded.ok) return decoded;
  }
  return host;
}

/** Go's `url.Parse` (non-request mode), limited to the fields BMC parsing needs. */
export function parseGoURL(raw: string): GoURLResult {
  const hashAt = raw.indexOf('#');
  const beforeFragment = hashAt < 0 ? raw : raw.slice(0, hashAt);
  if (hasControlCharacter(beforeFragment)) return fail(beforeFragment, 'net/url: invalid control character in URL');
  if (beforeFragment === '*') return { ok: true, url: { scheme: '', opaque: '', host: '', path: '*', rawQuery: '' } };

  const split = splitScheme(beforeFragment);
  if ('error' in split) return fail(beforeFragment, split.error);
  const scheme = split.scheme.toLowerCase();
  let rest = split.rest;
  let rawQuery = '';
  const queryAt = rest.indexOf('?');
  if (queryAt >= 0) {
    rawQuery = rest.slice(queryAt + 1);
    rest = rest.slice(0, queryAt);
  }

  if (!rest.startsWith('/')) {
    if (scheme !== '') return finish(raw, hashAt, { scheme, opaque: rest, host: '', path: '', rawQuery });
    const firstSegment = rest.split('/', 1)[0] ?? '';
    if (firstSegment.includes(':')) return fail(beforeFragment, 'first path segment in URL cannot contain colon');
  }

  let host = '';
  if ((scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const parsedHost = parseAuthority(authority);
    if (!parsedHost.ok) return fail(beforeFragment, parsedHost.reason);
    host = parsedHost.host;
  }

  const path = goUnescape(rest, 'path');
  if (!path.ok) return fail(beforeFragment, path.reason);
  return finish(raw, hashAt, { scheme, opaque: '', host, path: path.value, rawQuery });
}

/** The fragment is unused, but a malformed escape in it still fails the parse, as in Go. */
function finish(raw: string, hashAt: number, url: GoURL): GoURLResult {
  if (hashAt < 0) return { ok: true, url };
  const fragment = goUnescape(raw.slice(hashAt + 1), 'fragment');
  return fragment.ok ? { ok: true, url } : fail(raw, fragment.reason);
}
