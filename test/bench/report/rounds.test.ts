import { describe, expect, it } from '@jest/globals';
import { roundResult, roundsTables, summariseRounds } from './rounds.ts';
import type { FloorResult, OperatorRun, PhaseName } from './types.ts';

const timing = (seconds: number) => ({ hosts: 2, completed: 2, seconds, hostsPerMinute: 1, perHostSeconds: { p50: seconds, p90: seconds, max: seconds } });
const requests = { total: 0, perHost: 0, byKeyPerHost: {} };

function floor(seconds: Record<PhaseName, number>, ironicCpu?: number): FloorResult {
  const phase = (name: PhaseName) => ({ ...timing(seconds[name]), ironic: requests, ...(ironicCpu === undefined ? {} : { stackCpuSeconds: { ironic: ironicCpu } }) });
  return { pollMs: 1000, phases: { register: phase('register'), provision: phase('provision'), deprovision: phase('deprovision') } };
}

function run(label: string, seconds: Record<PhaseName, number>, ratios: Partial<Record<PhaseName, number>>): OperatorRun {
  const phase = (name: PhaseName) => ({
    ...timing(seconds[name]), kube: requests, kubeConnectionsOpened: 0, cpuSeconds: 0, rssMiBAtEnd: 0, heapUsedMiBAtEnd: 0,
    stackCpuSeconds: { ironic: seconds[name] - 1 },
    ...(ratios[name] === undefined ? {} : { ratioToFloor: ratios[name] }),
  });
  return { label, poll: { shortMs: 3000, longMs: 10000 }, phases: { register: phase('register'), provision: phase('provision'), deprovision: phase('deprovision') }, lifecycle: { kubeRequestsPerHost: 0, cpuSeconds: 0, peakRssMiB: 0 } };
}

describe('rounds', () => {
  const label = 'poll 3s/10s (BMO)';
  const rounds = [
    roundResult(floor({ register: 40, provision: 30, deprovision: 20 }, 38), [run(label, { register: 48, provision: 33, deprovision: 22 }, { register: 1.2, provision: 1.1, deprovision: 1.1 })]),
    roundResult(floor({ register: 70, provision: 50, deprovision: 25 }), [run(label, { register: 63, provision: 55, deprovision: 40 }, { register: 0.9, provision: 1.1, deprovision: 1.6 })]),
    // A phase that did not finish has no ratio, and is left out of its median.
    roundResult(floor({ register: 50, provision: 40, deprovision: 20 }), [run(label, { register: 55, provision: 52, deprovision: 30 }, { register: 1.1, provision: 1.3 })]),
  ];

  it('keeps each round\'s seconds, Ironic CPU and ratio', () => {
    expect(rounds[0]).toEqual({
      floor: { register: { seconds: 40, ironicCpuSeconds: 38 }, provision: { seconds: 30, ironicCpuSeconds: 38 }, deprovision: { seconds: 20, ironicCpuSeconds: 38 } },
      runs: [{ label, phases: {
        register: { seconds: 48, ironicCpuSeconds: 47, ratioToFloor: 1.2 },
        provision: { seconds: 33, ironicCpuSeconds: 32, ratioToFloor: 1.1 },
        deprovision: { seconds: 22, ironicCpuSeconds: 21, ratioToFloor: 1.1 },
      } }],
    });
    expect(rounds[1]?.floor?.register).toEqual({ seconds: 70 });
  });

  it('takes the median of the rounds\' ratios per run and phase (the lower one of an even count)', () => {
    expect(summariseRounds(rounds).medianRatios).toEqual([{ label, phases: { register: 1.1, provision: 1.1, deprovision: 1.1 } }]);
    expect(summariseRounds(rounds.slice(0, 2)).medianRatios[0]?.phases.register).toBe(0.9);
  });

  it('renders one table per run: each round\'s floor, operator and ratio, then the median', () => {
    const [table] = roundsTables(summariseRounds(rounds));
    expect(table).toContain(`| ${label}, by round: floor / operator, s (Ironic CPU s) | round 1: floor | operator | × | round 2: floor | operator | × | round 3: floor | operator | × | median × |`);
    expect(table).toContain('| created → available | 40.0 s (38.0) | 48.0 s (47.0) | 1.20× | 70.0 s | 63.0 s (62.0) | 0.90× | 50.0 s | 55.0 s (54.0) | 1.10× | 1.10× |');
    expect(table).toContain('| image cleared → available | 20.0 s (38.0) | 22.0 s (21.0) | 1.10× | 25.0 s | 40.0 s (39.0) | 1.60× | 20.0 s | 30.0 s (29.0) | – | 1.10× |');
  });
});
