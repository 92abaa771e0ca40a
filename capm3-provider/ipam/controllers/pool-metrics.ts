import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { InvalidPoolError, poolUsage } from '../allocation/index.ts';
import type { PoolUsage } from '../allocation/index.ts';
import type { IPPool } from '../api/index.ts';

export const POOL_ADDRESSES_METRIC = 'ipam_ippool_addresses';
export const POOL_ALLOCATED_METRIC = 'ipam_ippool_allocated_addresses';

type PoolLabels = { namespace: string; pool: string };

/** Each pool's usage; a pool whose ranges cannot work is left out (its reconcile reports why). */
function usages(pools: readonly IPPool[]): { labels: PoolLabels; usage: PoolUsage }[] {
  return pools.flatMap((pool) => {
    const labels = { namespace: pool.metadata.namespace ?? '', pool: pool.metadata.name ?? '' };
    try {
      return [{ labels, usage: poolUsage(pool.spec, Object.values(pool.status?.indexes ?? {})) }];
    } catch (error) {
      if (error instanceof InvalidPoolError) return [];
      throw error;
    }
  });
}

/**
 * `ipam_ippool_addresses{namespace,pool}` (the addresses of the pool's ranges) and
 * `ipam_ippool_allocated_addresses{namespace,pool}` (those claims hold, from status.indexes),
 * computed from the pool cache at each scrape, so a deleted pool's series go with it. `pools`
 * returns undefined until the cache is filled: no series rather than false ones.
 */
export function createPoolMetrics(registry: Registry, options: { pools: () => IPPool[] | undefined }): void {
  if (registry.getSingleMetric(POOL_ADDRESSES_METRIC)) return;
  const gauge = (name: string, help: string, value: (usage: PoolUsage) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['namespace', 'pool'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const { labels, usage } of usages(options.pools() ?? [])) this.set(labels, value(usage));
      },
    });
  gauge(POOL_ADDRESSES_METRIC, "Number of addresses in an IPPool's ranges", (usage) => usage.size);
  gauge(POOL_ALLOCATED_METRIC, 'Number of addresses of an IPPool held by claims', (usage) => usage.allocated);
}
