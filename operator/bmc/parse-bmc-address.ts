import type { BMCAddressError } from './bmc-address-error.ts';
import { invalidAddressError } from './bmc-address-error.ts';
import { isSplittableHostPort, splitURLHost } from './go-host-port.ts';
import type { GoURL } from './go-url.ts';
import { parseGoURL } from './go-url.ts';
import { invalidHostnameDetail } from './hostname-check.ts';

/** A BMC address split into URL parts, after BMO's defaulting to `ipmi`. */
export interface ParsedBMCAddress {
  /** Lower-cased URL scheme; selects the BMC type, e.g. `redfish+http`. */
  scheme: string;
  /** Host with optional port, IPv6 keeps its brackets: `[fd00::1]:8000`. */
  host: string;
  /** Host without port or brackets. */
  hostname: string;
  /** Port digits, or '' when absent. */
  port: string;
  /** Decoded URL path, e.g. a Redfish system ID. */
  path: string;
  rawQuery: string;
}

export type ParsedBMCAddressResult = { ok: true; parsed: ParsedBMCAddress } | { ok: false; error: BMCAddressError };

function toParsed(url: GoURL): ParsedBMCAddress {
  const { hostname, port } = splitURLHost(url.host);
  return { scheme: url.scheme, host: url.host, hostname, port, path: url.path, rawQuery: url.rawQuery };
}

function invalid(detail: string): ParsedBMCAddressResult {
  return { ok: false, error: invalidAddressError(detail) };
}

/** Parse like BMO's first attempt, then its fallbacks for `host:port`, `ipmi:host` and bare `host`. */
function parseWithFallbacks(address: string): { ok: true; url: GoURL } | { ok: false; detail: string } {
  const first = parseGoURL(address);
  if (!first.ok) {
    // Go's parser rejects `host:port` ("first path segment cannot contain colon"); BMO then
    // treats the whole string as an IPMI host if it splits as host:port.
    if (address.includes(':') && !isSplittableHostPort(address)) return { ok: false, detail: first.reason };
    return { ok: true, url: { scheme: 'ipmi', opaque: '', host: address, path: '', rawQuery: '' } };
  }
  if (first.url.opaque !== '') {
    // `ipmi:host` parses as an opaque URL; BMO rewrites it to `ipmi://host`.
    const rewritten = parseGoURL(address.replace(':', '://'));
    return rewritten.ok ? rewritten : { ok: false, detail: rewritten.reason };
  }
  if (first.url.scheme === '' && splitURLHost(first.url.host).hostname === '') {
    // Without a scheme the host was read as a path; retry as an IPMI URL.
    const defaulted = parseGoURL(`ipmi://${address}`);
    return defaulted.ok ? defaulted : { ok: false, detail: defaulted.reason };
  }
  return first;
}

/** BMO's `GetParsedURL`: never throws; a failure carries BMO's message. */
export function parseBMCAddress(address: string): ParsedBMCAddressResult {
  const url = parseWithFallbacks(address);
  if (!url.ok) return invalid(url.detail);
  const parsed = toParsed(url.url);
  const hostnameProblem = invalidHostnameDetail(parsed.hostname);
  if (hostnameProblem !== undefined) return invalid(hostnameProblem);
  return { ok: true, parsed };
}
