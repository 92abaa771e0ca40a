import { isIPv4, isIPv6 } from 'node:net';

/**
 * What Go's `url.ParseRequestURI` refuses, in its words (the part after `parse "<url>": `), or
 * undefined for a URL it takes. BMO's webhooks check image, firmware and DataImage URLs with it;
 * WHATWG's URL parser (Node's) accepts much that it refuses (a port that is not a number, a bad
 * `%` escape, a space in the host), so its rules are followed here instead.
 */
export function goRequestUriProblem(raw: string): string | undefined {
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return 'net/url: invalid control character in URL';
  if (raw === '') return 'empty url';
  if (raw === '*') return undefined;
  const scheme = schemeOf(raw);
  if (scheme.error) return scheme.error;
  let rest = scheme.rest;
  const query = rest.indexOf('?');
  if (query >= 0) rest = rest.slice(0, query);
  if (!rest.startsWith('/')) return scheme.name ? undefined : 'invalid URI for request';
  if (scheme.name && rest.startsWith('//')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    rest = slash >= 0 ? authority.slice(slash) : '';
    if (slash >= 0) authority = authority.slice(0, slash);
    const problem = authorityProblem(scheme.name.toLowerCase(), authority);
    if (problem) return problem;
  }
  return escapeProblem(rest, { mode: 'other' });
}

function schemeOf(raw: string): { name: string; rest: string; error?: string } {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return { name: '', rest: raw };
      continue;
    }
    if (c === ':') return i === 0 ? { name: '', rest: '', error: 'missing protocol scheme' } : { name: raw.slice(0, i), rest: raw.slice(i + 1) };
    return { name: '', rest: raw };
  }
  return { name: '', rest: raw };
}

const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function authorityProblem(scheme: string, authority: string): string | undefined {
  const at = authority.lastIndexOf('@');
  const hostProblem = hostProblemOf(scheme, at < 0 ? authority : authority.slice(at + 1));
  if (hostProblem) return hostProblem;
  if (at < 0) return undefined;
  const userinfo = authority.slice(0, at);
  if (!USERINFO.test(userinfo)) return 'net/url: invalid userinfo';
  return escapeProblem(userinfo, { mode: 'other' });
}

const validOptionalPort = (colonPort: string) => colonPort === '' || /^:[0-9]*$/.test(colonPort);

function hostProblemOf(scheme: string, host: string): string | undefined {
  const open = host.lastIndexOf('[');
  if (open > 0) return 'invalid IP-literal';
  if (open === 0) return ipLiteralProblem(host);
  const first = host.indexOf(':');
  if (first >= 0) {
    // Colons in a host are only a port's, except that Go still lets other schemes (database
    // URLs listing hosts) keep all but the last one.
    const last = host.lastIndexOf(':');
    const colonPort = host.slice(scheme === 'http' || scheme === 'https' ? first : last);
    if (!validOptionalPort(colonPort)) return `invalid port ${goQuote(colonPort)} after host`;
  }
  return escapeProblem(host, { mode: 'host' });
}

/** A bracketed host: an IPv6 address (a zone after %25), then an optional port. */
function ipLiteralProblem(host: string): string | undefined {
  const close = host.lastIndexOf(']');
  if (close < 0) return "missing ']' in host";
  const colonPort = host.slice(close + 1);
  if (!validOptionalPort(colonPort)) return `invalid port ${goQuote(colonPort)} after host`;
  const hostname = host.slice(1, close);
  const zone = hostname.indexOf('%25');
  const problem = zone >= 0
    ? escapeProblem(hostname.slice(0, zone), { mode: 'host' }) ?? escapeProblem(hostname.slice(zone), { mode: 'zone' })
    : escapeProblem(hostname, { mode: 'host' });
  if (problem) return problem;
  let address: string;
  try {
    address = decodeURIComponent(hostname);
  } catch {
    return `invalid host: ParseAddr(${goQuote(hostname)}): unable to parse IP`;
  }
  if (isIPv4(address)) return 'invalid IP-literal';
  if (!isIPv6(address)) return `invalid host: ParseAddr(${goQuote(address)}): unable to parse IP`;
  return undefined;
}

/** Characters a host may hold unescaped (Go's shouldEscape in host mode, ASCII only). */
const HOST_CHARACTER = /[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]/;

function escapeProblem(text: string, options: { mode: 'host' | 'zone' | 'other' }): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '%') {
      const escape = text.slice(i, i + 3);
      if (!/^%[0-9a-fA-F]{2}$/.test(escape)) return `invalid URL escape ${goQuote(escape)}`;
      // In a host only %25 (a zone) or an escape of a byte from 0x80 up; in a zone, what a host may hold, or a space.
      const value = parseInt(escape.slice(1), 16);
      if (options.mode === 'host' && value < 0x80 && escape !== '%25') return `invalid URL escape ${goQuote(escape)}`;
      if (options.mode === 'zone' && escape !== '%25' && value !== 0x20 && value < 0x80 && !HOST_CHARACTER.test(String.fromCharCode(value))) {
        return `invalid URL escape ${goQuote(escape)}`;
      }
      i += 2;
    } else if (options.mode !== 'other' && c.charCodeAt(0) < 0x80 && !HOST_CHARACTER.test(c)) {
      return `invalid character ${goQuote(c)} in host name`;
    }
  }
  return undefined;
}

/** Go's %q for the ASCII text these messages quote. */
function goQuote(text: string): string {
  return JSON.stringify(text);
}
