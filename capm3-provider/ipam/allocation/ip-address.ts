import { isIPv4, isIPv6 } from 'node:net';

export type IpFamily = 4 | 6;

/** An address as a number, so ranges can be walked and compared with bigint arithmetic. */
export interface Ip {
  family: IpFamily;
  value: bigint;
}

export const FAMILY_BITS: Record<IpFamily, number> = { 4: 32, 6: 128 };

export function maxValue(family: IpFamily): bigint {
  return (1n << BigInt(FAMILY_BITS[family])) - 1n;
}

function parseIPv4(text: string): bigint {
  return text.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

function parseIPv6(text: string): bigint {
  // A trailing dotted quad (::ffff:1.2.3.4) is two 16-bit groups.
  let groupsText = text;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    const quad = parseIPv4(text.slice(lastColon + 1));
    groupsText = `${text.slice(0, lastColon + 1)}${(quad >> 16n).toString(16)}:${(quad & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = groupsText.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : new Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/** undefined for anything node:net does not accept as an address. */
export function parseIp(text: string): Ip | undefined {
  if (isIPv4(text)) return { family: 4, value: parseIPv4(text) };
  if (isIPv6(text) && !text.includes('%')) return { family: 6, value: parseIPv6(text) };
  return undefined;
}

/** The canonical text form (RFC 5952 for IPv6: lower case, the longest run of zero groups as ::). */
export function formatIp(ip: Ip): string {
  if (ip.family === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => String((ip.value >> shift) & 0xffn)).join('.');
  }
  const groups = Array.from({ length: 8 }, (_, index) => Number((ip.value >> BigInt((7 - index) * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8;) {
    if (groups[start] !== 0) { start += 1; continue; }
    let end = start;
    while (end < 8 && groups[end] === 0) end += 1;
    if (end - start > bestLength) { bestStart = start; bestLength = end - start; }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** The canonical form of an address text, or the text itself when it is no address (never equal to a real one). */
export function canonicalIp(text: string): string {
  const ip = parseIp(text);
  return ip ? formatIp(ip) : text;
}
