import { isIP } from 'node:net';
import { z } from 'zod';

/** Longest textual IPv6 address (IPv4-mapped form), so the API server can bound its CEL cost. */
const MAX_ADDRESS_LENGTH = 45;

function isCidr(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash <= 0) return false;
  const family = isIP(value.slice(0, slash));
  const bits = value.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** An IPv4 or IPv6 address; the API server checks it with CEL's isIP, zod with node:net. */
export function ipAddressString() {
  return z.string().min(2).max(MAX_ADDRESS_LENGTH)
    .refine((value) => isIP(value) !== 0, { message: 'not an IPv4 or IPv6 address' })
    .meta({ 'x-kubernetes-validations': [{ rule: 'isIP(self)', message: 'must be an IPv4 or IPv6 address' }] });
}

/** A subnet in CIDR notation (`192.168.0.0/24`, `fd00::/64`). */
export function ipSubnetString() {
  return z.string().min(4).max(MAX_ADDRESS_LENGTH + 4)
    .refine(isCidr, { message: 'not a subnet in CIDR notation' })
    .meta({ 'x-kubernetes-validations': [{ rule: 'isCIDR(self)', message: 'must be a subnet in CIDR notation' }] });
}

/** A network prefix length; 128 covers IPv6, IPv4 pools should stay at or below 32. */
export function prefixLength() {
  return z.int().min(0).max(128).meta({ format: 'int32' });
}

/**
 * Most entries of an address map (preAllocations, status.indexes): bounded so the API server
 * can afford the CEL check of every value; far more than one object can hold anyway.
 */
export const MAX_ADDRESS_MAP_ENTRIES = 16384;

/** Claim name -> address. */
export function addressMap() {
  return z.record(z.string().min(1).max(253), ipAddressString())
    .refine((map) => Object.keys(map).length <= MAX_ADDRESS_MAP_ENTRIES, { message: `at most ${MAX_ADDRESS_MAP_ENTRIES} entries` })
    .meta({ maxProperties: MAX_ADDRESS_MAP_ENTRIES });
}
