import { describe, expect, it } from '@jest/globals';
import type { OpenMetricsContentType, RegistryContentType } from 'prom-client';
import { Counter, Gauge, Registry } from 'prom-client';
import { CompactHistogram } from './compact-histogram.ts';
import { metricsExposition } from './metrics-exposition.ts';

async function text(registry: Registry<RegistryContentType>): Promise<string> {
  const body = await metricsExposition(registry);
  return typeof body === 'string' ? body : [...body].join('');
}

/** Metric families (blank-line separated blocks), in name order. */
const families = (exposition: string) => exposition.split('\n\n').map((family) => family.trim()).filter(Boolean).sort();

describe('metricsExposition', () => {
  it('has every family prom-client would write, per-host histograms after the others', async () => {
    const registry = new Registry();
    const histogram = new CompactHistogram({ name: 'b_seconds', help: 'b', labelNames: ['host'] as const, buckets: [1, 10], registers: [registry] });
    new Counter({ name: 'a_total', help: 'a', labelNames: ['host'], registers: [registry] }).inc({ host: 'h1' });
    new Gauge({ name: 'c', help: 'c', registers: [registry], collect() { this.set(3); } });
    for (let n = 0; n < 600; n++) histogram.observe({ host: `h${n}` }, n);

    const body = await metricsExposition(registry);
    expect(typeof body).not.toBe('string');
    const ours = [...body].join('');
    expect(families(ours)).toEqual(families(await registry.metrics()));
    expect(ours.trimStart().startsWith('# HELP a_total')).toBe(true);
    expect(ours.endsWith('b_seconds_count{host="h599"} 1\n')).toBe(true);
    expect(ours).toContain('\nc 3\n');
  });

  it('fails before any text when a collect callback fails, so the scrape gets an error status', async () => {
    const registry = new Registry();
    new Gauge({ name: 'broken', help: 'x', registers: [registry], collect() { throw new Error('collect failed'); } });
    await expect(metricsExposition(registry)).rejects.toThrow('collect failed');
  });

  it('writes an OpenMetrics registry as prom-client does', async () => {
    const registry = new Registry<OpenMetricsContentType>();
    registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    const counter = new Counter({ name: 'a_total', help: 'a', registers: [] });
    registry.registerMetric(counter);
    counter.inc();
    expect(await text(registry)).toBe(await registry.metrics());
  });
});
