import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { ipPoolSchema } from '../api/index.ts';
import type { IPPool } from '../api/index.ts';
import { createPoolMetrics } from './pool-metrics.ts';

const pool = (name: string, pools: Record<string, string>[], indexes: Record<string, string> = {}): IPPool =>
  ipPoolSchema.parse({ metadata: { name, namespace: 'ns' }, spec: { namePrefix: name, pools }, status: { indexes } });

describe('IPPool metrics', () => {
  it('report size and allocated addresses per pool at each scrape, no series for invalid or deleted pools or before the cache fills', async () => {
    const registry = new Registry();
    let pools: IPPool[] | undefined;
    createPoolMetrics(registry, { pools: () => pools });
    const series = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values.map((v) => [v.labels.pool, v.value]);

    expect(await series('ipam_ippool_addresses')).toEqual([]);
    pools = [
      pool('full', [{ start: '192.168.0.1', end: '192.168.0.2' }], { a: '192.168.0.1', b: '192.168.0.2' }),
      pool('roomy', [{ subnet: '10.0.0.0/24' }], { a: '10.0.0.1' }),
      pool('invalid', [{ start: '10.0.1.9', end: '10.0.1.1' }]),
    ];
    expect(await series('ipam_ippool_addresses')).toEqual([['full', 2], ['roomy', 254]]);
    expect(await series('ipam_ippool_allocated_addresses')).toEqual([['full', 2], ['roomy', 1]]);
    pools = [pool('roomy', [{ subnet: '10.0.0.0/24' }], {})];
    expect(await series('ipam_ippool_addresses')).toEqual([['roomy', 254]]);
    expect(await series('ipam_ippool_allocated_addresses')).toEqual([['roomy', 0]]);
  });
});
