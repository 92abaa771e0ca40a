import { isIPv4, isIPv6 } from 'node:net';

// BMO's DNS-label pattern: dot-separated labels of letters/digits/hyphens, no leading or
// trailing hyphen, at most 63 characters each.
const DNS_NAME = /^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]{0,61}[a-zA-Z0-9])\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]{0,61}[A-Za-z0-9])$/;

/** Go's `net.ParseIP` accepts no IPv6 zone, unlike Node's `isIPv6`. */
function isPlainIP(text: string): boolean {
  return isIPv4(text) || (isIPv6(text) && !text.includes('%'));
}

/**
 * BMO's `checkDNSValid`: an empty hostname is allowed (it only fails later, at the BMC),
 * otherwise it must be an IP address or a DNS name. Returns the error detail, or undefined.
 */
export function invalidHostnameDetail(hostname: string): string | undefined {
  if (hostname === '' || isPlainIP(hostname) || DNS_NAME.test(hostname)) return undefined;
  return `BMC address hostname/IP : [${hostname}] is invalid`;
}
