import { describe, expect, it } from '@jest/globals';
import { kubeBreakdown, kubeBreakdownTable } from './kube-breakdown.ts';
import type { OperatorRun, RequestCounts } from './types.ts';

const counts = (byKeyPerHost: Record<string, number>): RequestCounts => ({ total: 0, perHost: 0, byKeyPerHost });

function run(options: { deletion: boolean }): OperatorRun {
  const phase = (byKeyPerHost: Record<string, number>) => ({ kube: counts(byKeyPerHost) }) as OperatorRun['phases']['register'];
  return {
    label: 'op',
    poll: { shortMs: 3000, longMs: 10_000 },
    phases: {
      register: phase({ 'patch baremetalhosts/status': 6, 'create events': 4, 'get secrets': 1 }),
      provision: phase({ 'patch baremetalhosts/status': 3, 'create events': 2 }),
      deprovision: phase({ 'patch baremetalhosts/status': 2.5 }),
    },
    ...(options.deletion ? { deletion: { kube: counts({ 'patch baremetalhosts': 1, 'get secrets': 0.5 }) } as OperatorRun['deletion'] } : {}),
    lifecycle: { kubeRequestsPerHost: 0, cpuSeconds: 0, peakRssMiB: 0 },
  };
}

describe('Kubernetes requests by verb and resource', () => {
  it('gives each key its per-phase figures, their sum and the deletion, most requests first', () => {
    expect(kubeBreakdown(run({ deletion: true }))).toEqual([
      { key: 'patch baremetalhosts/status', phases: [6, 3, 2.5], lifecycle: 11.5, deletion: 0 },
      { key: 'create events', phases: [4, 2, 0], lifecycle: 6, deletion: 0 },
      { key: 'get secrets', phases: [1, 0, 0], lifecycle: 1, deletion: 0.5 },
      { key: 'patch baremetalhosts', phases: [0, 0, 0], lifecycle: 0, deletion: 1 },
    ]);
  });

  it('is a markdown table, with a dash for a run that deleted nothing', () => {
    const table = kubeBreakdownTable(run({ deletion: false }));
    expect(table).toContain('| op: Kubernetes requests per host | created → available | image set → provisioned | image cleared → available | whole lifecycle | deleted → gone |');
    expect(table).toContain('| `patch baremetalhosts/status` | 6.00 | 3.00 | 2.50 | 11.50 | – |');
  });
});
