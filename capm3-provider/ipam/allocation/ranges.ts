import type { PoolEntry } from '../api/index.ts';
import { FAMILY_BITS, formatIp, maxValue, parseIp } from './ip-address.ts';
import type { Ip, IpFamily } from './ip-address.ts';

/** A pool entry's configuration cannot give addresses; the message names the entry and the problem. */
export class InvalidPoolError extends Error {
  override readonly name = 'InvalidPoolError';
}

/** The addresses one pool entry hands out: first..last inclusive, one family. */
export interface AddressRange {
  family: IpFamily;
  first: bigint;
  last: bigint;
}

interface Subnet {
  family: IpFamily;
  network: bigint;
  broadcast: bigint;
  bits: number;
}

function parseAddress(text: string, what: string): Ip {
  const ip = parseIp(text);
  if (!ip) throw new InvalidPoolError(`${what} ${JSON.stringify(text)} is not an IP address`);
  return ip;
}

function parseSubnet(text: string): Subnet {
  const [address = '', bitsText = '', ...rest] = text.split('/');
  const ip = parseIp(address);
  const bits = Number(bitsText);
  if (!ip || rest.length > 0 || !/^\d+$/.test(bitsText) || bits > FAMILY_BITS[ip.family]) {
    throw new InvalidPoolError(`subnet ${JSON.stringify(text)} is not a subnet in CIDR notation`);
  }
  const hostBits = BigInt(FAMILY_BITS[ip.family] - bits);
  const hostMask = (1n << hostBits) - 1n;
  const network = ip.value & ~hostMask & maxValue(ip.family);
  return { family: ip.family, network, broadcast: network | hostMask, bits };
}

/**
 * The usable addresses of a subnet. Like upstream, the network address itself is never
 * handed out; unlike upstream, an IPv4 subnet's broadcast address is not either (except in
 * /31 and /32, which have no broadcast, RFC 3021).
 */
function usableSubnetRange(subnet: Subnet): { first: bigint; last: bigint } {
  if (subnet.family === 4 && subnet.bits >= 31) return { first: subnet.network, last: subnet.broadcast };
  const last = subnet.family === 4 ? subnet.broadcast - 1n : subnet.broadcast;
  return { first: subnet.network + 1n, last };
}

/** Resolves one pool entry; throws InvalidPoolError naming the entry (`pools[index]`) when it cannot work. */
export function resolveRange(entry: PoolEntry, index: number): AddressRange {
  const where = `pools[${index}]`;
  try {
    if (!entry.start && !entry.subnet) throw new InvalidPoolError('needs a start address or a subnet');
    const subnet = entry.subnet ? parseSubnet(entry.subnet) : undefined;
    const start = entry.start ? parseAddress(entry.start, 'start') : undefined;
    const end = entry.end ? parseAddress(entry.end, 'end') : undefined;
    const family = (subnet ?? start ?? end)!.family;
    for (const [what, ip] of [['start', start], ['end', end]] as const) {
      if (ip && ip.family !== family) throw new InvalidPoolError(`${what} ${formatIp(ip)} is not an IPv${family} address like the rest of the range`);
      if (ip && subnet && (ip.value < subnet.network || ip.value > subnet.broadcast)) {
        throw new InvalidPoolError(`${what} ${formatIp(ip)} is outside subnet ${entry.subnet}`);
      }
    }
    const usable = subnet ? usableSubnetRange(subnet) : undefined;
    const first = start?.value ?? usable!.first;
    const last = end?.value ?? usable?.last ?? maxValue(family);
    if (first > last) {
      throw new InvalidPoolError(end
        ? `end ${formatIp({ family, value: last })} is before start ${formatIp({ family, value: first })}`
        : `subnet ${entry.subnet} has no usable addresses`);
    }
    return { family, first, last };
  } catch (error) {
    if (error instanceof InvalidPoolError) throw new InvalidPoolError(`${where}: ${error.message}`);
    throw error;
  }
}

export function rangeContains(range: AddressRange, ip: Ip): boolean {
  return ip.family === range.family && ip.value >= range.first && ip.value <= range.last;
}
