import { describe, expect, it } from '@jest/globals';
import { Histogram, Registry } from 'prom-client';
import { CompactHistogram } from './compact-histogram.ts';

const BUCKETS = [30, 90, 180, 360, 720, 1440];
const OBSERVATIONS: [Record<'namespace' | 'host', string>, number][] = [
  [{ namespace: 'a', host: 'h1' }, 12],
  [{ namespace: 'a', host: 'h1' }, 90],
  [{ namespace: 'a', host: 'h2' }, 2000.5],
  [{ namespace: 'b', host: 'h"quoted"' }, 400],
  [{ namespace: 'a', host: 'h1' }, 0],
];

async function exposition(make: (registry: Registry) => { observe(labels: Record<'namespace' | 'host', string>, value: number): void }) {
  const registry = new Registry();
  const histogram = make(registry);
  for (const [labels, value] of OBSERVATIONS) histogram.observe(labels, value);
  return registry.metrics();
}

describe('CompactHistogram', () => {
  it('is exposed exactly as prom-client exposes its Histogram for the same observations', async () => {
    const options = { name: 'metal3_operation_inspect_duration_seconds', help: 'Length of time per hardware inspection per host', labelNames: ['namespace', 'host'] as const, buckets: BUCKETS };
    const theirs = await exposition((registry) => new Histogram({ ...options, registers: [registry] }));
    const ours = await exposition((registry) => new CompactHistogram({ ...options, registers: [registry] }));
    expect(ours).toBe(theirs);
    expect(ours).toContain('metal3_operation_inspect_duration_seconds_bucket{le="90",namespace="a",host="h1"} 3');
  });

  it('writes the same text in chunks of a few series, with and without labels', async () => {
    const options = { name: 'metal3_operation_inspect_duration_seconds', help: 'Length of time\\per "inspection"\nper host', labelNames: ['namespace', 'host'] as const, buckets: BUCKETS };
    let histogram: CompactHistogram<'namespace' | 'host'> | undefined;
    const text = await exposition((registry) => (histogram = new CompactHistogram({ ...options, registers: [registry] })));
    const chunks = [...histogram!.exposition({ seriesPerChunk: 2 })];
    expect(chunks).toHaveLength(2);
    expect(`${chunks.join('')}\n`).toBe(text);

    const registry = new Registry();
    const unlabelled = new CompactHistogram({ name: 'u_seconds', help: 'u', labelNames: [], buckets: [1, 2.5], registers: [registry] });
    expect(`${[...unlabelled.exposition()].join('')}\n`).toBe(await registry.metrics());
    unlabelled.observe({}, 2);
    unlabelled.observe({}, 0.1 + 0.2);
    expect(`${[...unlabelled.exposition()].join('')}\n`).toBe(await registry.metrics());
  });

  it('forgets a series on remove and everything on reset', async () => {
    const registry = new Registry();
    const histogram = new CompactHistogram({ name: 'x_seconds', help: 'x', labelNames: ['host'] as const, buckets: [1, 2], registers: [registry] });
    histogram.observe({ host: 'a' }, 1);
    histogram.observe({ host: 'b' }, 3);
    histogram.remove({ host: 'a' });
    expect(histogram.size).toBe(1);
    expect(await registry.metrics()).not.toContain('host="a"');
    expect(await registry.metrics()).toContain('x_seconds_count{host="b"} 1');
    registry.resetMetrics();
    expect(histogram.size).toBe(0);
  });

  it('is found by name on its registry, so a second controller reuses it', () => {
    const registry = new Registry();
    const histogram = new CompactHistogram({ name: 'y_seconds', help: 'y', labelNames: ['host'] as const, buckets: [1], registers: [registry] });
    expect(registry.getSingleMetric('y_seconds')).toBe(histogram);
  });

  it('refuses buckets that are not ascending', () => {
    expect(() => new CompactHistogram({ name: 'z', help: 'z', labelNames: [], buckets: [2, 1], registers: [] })).toThrow(/ascending/);
    expect(() => new CompactHistogram({ name: 'z', help: 'z', labelNames: [], buckets: [], registers: [] })).toThrow(/ascending/);
  });
});
