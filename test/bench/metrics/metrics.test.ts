import { describe, expect, it } from '@jest/globals';
import { addTotals, counterTotals, diffTotals, perHost, sumTotals } from './counter-totals.ts';
import { cpuSecondsFromStat, memoryFromStatus } from './process-stats.ts';
import { parsePrometheusText } from './prometheus-text.ts';

const exposition = `# HELP ironic_client_requests_total HTTP requests sent to Ironic
# TYPE ironic_client_requests_total counter
ironic_client_requests_total{method="GET",route="/v1/nodes/{node_ident}",code="200"} 40
ironic_client_requests_total{method="GET",route="/v1/nodes/{node_ident}",code="404"} 2
ironic_client_requests_total{method="PUT",route="/v1/nodes/{node_ident}/states/provision",code="202"} 6
rest_client_requests_total{code="200",host="127.0.0.1:6443",method="PATCH"} 12
process_resident_memory_bytes 8.5e+07
odd_metric{path="a \\"quoted\\", value"} +Inf
`;

describe('Prometheus text', () => {
  const samples = parsePrometheusText(exposition);

  it('reads names, labels (with escapes) and values, skipping comments', () => {
    expect(samples).toHaveLength(6);
    expect(samples[0]).toEqual({
      name: 'ironic_client_requests_total',
      labels: { method: 'GET', route: '/v1/nodes/{node_ident}', code: '200' },
      value: 40,
    });
    expect(samples[4]).toEqual({ name: 'process_resident_memory_bytes', labels: {}, value: 85_000_000 });
    expect(samples[5]?.labels).toEqual({ path: 'a "quoted", value' });
    expect(samples[5]?.value).toBe(Number.POSITIVE_INFINITY);
  });

  it('totals a counter by chosen labels and diffs two scrapes per host', () => {
    const before = counterTotals(samples, { name: 'ironic_client_requests_total', keyLabels: ['method', 'route'] });
    expect(before).toEqual({ 'GET /v1/nodes/{node_ident}': 42, 'PUT /v1/nodes/{node_ident}/states/provision': 6 });
    const after = { ...before, 'GET /v1/nodes/{node_ident}': 62, 'POST /v1/nodes': 4 };
    const diff = diffTotals(after, before);
    expect(diff).toEqual({ 'GET /v1/nodes/{node_ident}': 20, 'POST /v1/nodes': 4 });
    expect(sumTotals(diff)).toBe(24);
    expect(perHost(diff, 3)).toEqual({ 'GET /v1/nodes/{node_ident}': 6.67, 'POST /v1/nodes': 1.33 });
    expect(addTotals(diff, { 'POST /v1/nodes': 1 })).toEqual({ 'GET /v1/nodes/{node_ident}': 20, 'POST /v1/nodes': 5 });
  });
});

describe('/proc readers', () => {
  it('adds user and system ticks, even when the command name has spaces and parentheses', () => {
    const stat = '4242 (node (main) x) S 1 4242 4242 0 -1 4194560 9000 0 0 0 250 75 0 0 20 0 11 0 100 1000000 20000';
    expect(cpuSecondsFromStat(stat, 100)).toBeCloseTo(3.25);
  });

  it('reads the current and peak resident set', () => {
    const status = 'Name:\tnode\nVmPeak:\t 1000000 kB\nVmHWM:\t  120000 kB\nVmRSS:\t   98000 kB\n';
    expect(memoryFromStatus(status)).toEqual({ rssKiB: 98_000, peakRssKiB: 120_000 });
  });
});
