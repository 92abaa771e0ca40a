import type { AllocationStrategy, PoolEntry } from '../api/index.ts';
import { formatIp, parseIp } from './ip-address.ts';
import type { Ip } from './ip-address.ts';
import { InvalidPoolError, rangeContains, resolveRange } from './ranges.ts';
import type { AddressRange } from './ranges.ts';

/** What an allocation needs to know of a pool's spec. */
export interface PoolSettings {
  pools?: PoolEntry[];
  allocationStrategy?: AllocationStrategy;
  preAllocations?: Record<string, string>;
  prefix?: number;
  gateway?: string;
  dnsServers?: string[];
}

export interface AllocationRequest {
  pool: PoolSettings;
  claimName: string;
  /** Held by IPAddresses (either API group) of this pool, any text form. */
  inUse: Iterable<string>;
  /** The claim's `ipAddress` annotation: this address or none. */
  requestedAddress?: string;
  /** Random numbers in [0, 1) for the random strategy. */
  random?: () => number;
}

/** An address and the network settings handed out with it. */
export interface Allocation {
  address: string;
  prefix: number;
  gateway?: string;
  dnsServers?: string[];
}

/** Cluster API's reasons: the pool is full, or the allocation cannot work as configured. */
export type AllocationFailure = 'PoolExhausted' | 'AllocationFailed';

export class AllocationError extends Error {
  override readonly name = 'AllocationError';
  readonly reason: AllocationFailure;

  constructor(reason: AllocationFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

function keyOf(ip: Ip): string {
  return `${ip.family}/${ip.value}`;
}

interface ResolvedEntry {
  entry: PoolEntry;
  range: AddressRange;
}

function resolveEntries(pool: PoolSettings): ResolvedEntry[] {
  try {
    return (pool.pools ?? []).map((entry, index) => ({ entry, range: resolveRange(entry, index) }));
  } catch (error) {
    if (error instanceof InvalidPoolError) throw new AllocationError('AllocationFailed', `invalid pool: ${error.message}`);
    throw error;
  }
}

/** Settings of the entry the address came from, falling back to the pool's (upstream: a 0 prefix is unset). */
function settingsFor(pool: PoolSettings, resolved: ResolvedEntry, ip: Ip): Allocation {
  const { entry } = resolved;
  const subnetBits = entry.subnet ? Number(entry.subnet.split('/')[1]) : undefined;
  const prefix = entry.prefix || pool.prefix || subnetBits || 0;
  const maxPrefix = ip.family === 4 ? 32 : 128;
  if (prefix > maxPrefix) {
    throw new AllocationError('AllocationFailed', `invalid pool: prefix ${prefix} is too long for IPv${ip.family} address ${formatIp(ip)}`);
  }
  const gateway = entry.gateway ?? pool.gateway;
  const dnsServers = entry.dnsServers?.length ? entry.dnsServers : pool.dnsServers;
  return {
    address: formatIp(ip),
    prefix,
    ...(gateway ? { gateway } : {}),
    ...(dnsServers?.length ? { dnsServers: [...dnsServers] } : {}),
  };
}

function firstFree(range: AddressRange, taken: ReadonlySet<string>, start: bigint): bigint | undefined {
  // Only taken addresses are skipped, so this visits at most taken.size + 1 candidates.
  const size = range.last - range.first + 1n;
  for (let step = 0n; step < size && step <= BigInt(taken.size); step += 1n) {
    const value = range.first + ((start - range.first + step) % size);
    if (!taken.has(keyOf({ family: range.family, value }))) return value;
  }
  return undefined;
}

function randomStart(range: AddressRange, random: () => number): bigint {
  const size = range.last - range.first + 1n;
  // 53 random bits are plenty to spread claims over any range; bigint keeps IPv6 exact.
  const offset = (BigInt(Math.floor(random() * 2 ** 53)) * size) >> 53n;
  return range.first + offset;
}

/** A fixed address (pre-allocated or requested) must lie in a range and be free. */
function allocateFixed(
  pool: PoolSettings, entries: ResolvedEntry[], taken: ReadonlySet<string>, text: string, what: string,
): Allocation {
  const ip = parseIp(text);
  if (!ip) throw new AllocationError('AllocationFailed', `${what} ${JSON.stringify(text)} is not an IP address`);
  const resolved = entries.find((candidate) => rangeContains(candidate.range, ip));
  if (!resolved) throw new AllocationError('AllocationFailed', `${what} ${formatIp(ip)} is outside the pool's ranges`);
  if (taken.has(keyOf(ip))) throw new AllocationError('AllocationFailed', `${what} ${formatIp(ip)} is already allocated to another claim`);
  return settingsFor(pool, resolved, ip);
}

/**
 * Picks the address for one claim, as upstream's allocateAddress does: its pre-allocation or
 * requested address if it has one, else the lowest free address (or a random free one) of the
 * first range that has any. Addresses pre-allocated to other claims are never handed out.
 * Throws AllocationError with a message a user can act on.
 */
export function allocate(request: AllocationRequest): Allocation {
  const { pool, claimName } = request;
  const entries = resolveEntries(pool);
  const taken = new Set<string>();
  for (const text of request.inUse) {
    const ip = parseIp(text);
    if (ip) taken.add(keyOf(ip));
  }
  const preAllocated = pool.preAllocations?.[claimName];
  for (const [owner, text] of Object.entries(pool.preAllocations ?? {})) {
    const ip = parseIp(text);
    if (ip && owner !== claimName) taken.add(keyOf(ip));
  }
  const requested = request.requestedAddress;
  if (preAllocated !== undefined) {
    if (requested && parseIp(requested)?.value !== parseIp(preAllocated)?.value) {
      throw new AllocationError('AllocationFailed',
        `requested address ${requested} conflicts with the address ${preAllocated} pre-allocated to claim ${claimName}`);
    }
    return allocateFixed(pool, entries, taken, preAllocated, `pre-allocated address`);
  }
  if (requested) return allocateFixed(pool, entries, taken, requested, 'requested address');

  if (entries.length === 0) throw new AllocationError('AllocationFailed', 'invalid pool: it has no address ranges (spec.pools is empty)');
  for (const resolved of entries) {
    const { range } = resolved;
    const start = pool.allocationStrategy === 'random' ? randomStart(range, request.random ?? Math.random) : range.first;
    const value = firstFree(range, taken, start);
    if (value !== undefined) return settingsFor(pool, resolved, { family: range.family, value });
  }
  const ranges = entries.map(({ range }) =>
    `${formatIp({ family: range.family, value: range.first })}-${formatIp({ family: range.family, value: range.last })}`);
  throw new AllocationError('PoolExhausted', `no free address left in the pool (ranges ${ranges.join(', ')} are all allocated)`);
}
