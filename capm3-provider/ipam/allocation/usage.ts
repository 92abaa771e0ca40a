import { parseIp } from './ip-address.ts';
import { rangeContains, resolveRange } from './ranges.ts';
import type { AddressRange } from './ranges.ts';
import type { PoolSettings } from './allocate.ts';

/** How many addresses a pool's ranges hold and how many of them claims hold. */
export interface PoolUsage {
  size: number;
  allocated: number;
}

/** Ranges of one family merged where they overlap or touch, so no address counts twice. */
function merged(ranges: readonly AddressRange[]): AddressRange[] {
  const result: AddressRange[] = [];
  for (const range of [...ranges].sort((a, b) => a.family - b.family || (a.first < b.first ? -1 : a.first > b.first ? 1 : 0))) {
    const previous = result.at(-1);
    if (previous && previous.family === range.family && range.first <= previous.last + 1n) {
      if (range.last > previous.last) previous.last = range.last;
    } else {
      result.push({ ...range });
    }
  }
  return result;
}

/**
 * The pool's size (its ranges, as allocation resolves them) and how many distinct held
 * addresses lie in them. Throws InvalidPoolError when a range cannot work, as allocation does.
 * Sizes beyond 2^53 (IPv6 subnets) lose precision, as any Prometheus sample does.
 */
export function poolUsage(pool: PoolSettings, held: Iterable<string>): PoolUsage {
  const ranges = merged((pool.pools ?? []).map((entry, index) => resolveRange(entry, index)));
  const size = ranges.reduce((sum, range) => sum + (range.last - range.first + 1n), 0n);
  const inRanges = new Set<string>();
  for (const text of held) {
    const ip = parseIp(text);
    if (ip && ranges.some((range) => rangeContains(range, ip))) inRanges.add(`${ip.family}/${ip.value}`);
  }
  return { size: Number(size), allocated: inRanges.size };
}
