import { describe, expect, it } from '@jest/globals';
import { floorResult, operatorRun } from './assemble.ts';
import { round2 } from '../metrics/counter-totals.ts';
import type { MeasuredFloor, MeasuredOperatorRun } from './assemble.ts';
import { BMO_ONE_OFF_REQUESTS, bmoEstimate, bmoPolls } from './bmo-estimate.ts';
import { markdownTable, renderMarkdown } from './markdown.ts';
import { percentile, phaseTiming, ratioToFloor } from './phase-timing.ts';
import { roundResult, summariseRounds } from './rounds.ts';
import type { BenchReport } from './types.ts';

const s = (seconds: number) => seconds * 1000;

describe('phase timing', () => {
  it('times N hosts from the phase start to the last one, with hosts per minute and percentiles', () => {
    const timing = phaseTiming({ startMs: 0, endMs: s(60), completions: [s(10), s(20), s(30), s(60)] });
    expect(timing).toEqual({ hosts: 4, completed: 4, seconds: 60, hostsPerMinute: 4, perHostSeconds: { p50: 20, p90: 60, max: 60 } });
  });

  it('counts to the timeout when hosts never arrive, and gives no ratio then', () => {
    const timing = phaseTiming({ startMs: 0, endMs: s(120), completions: [s(30), undefined] });
    expect(timing).toMatchObject({ hosts: 2, completed: 1, seconds: 120, hostsPerMinute: 0.5 });
    const floor = phaseTiming({ startMs: 0, endMs: s(40), completions: [s(40), s(40)] });
    expect(ratioToFloor(timing, floor)).toBeUndefined();
    expect(ratioToFloor(phaseTiming({ startMs: 0, endMs: s(50), completions: [s(50), s(50)] }), floor)).toBe(1.25);
  });

  it('takes nearest-rank percentiles', () => {
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(percentile([], 0.5)).toBe(0);
  });
});

describe('the BMO cadence estimate', () => {
  it('polls once on entering a state, then every interval plus the mean jitter, 60 s when idle', () => {
    // inspecting for 45 s: entry + floor(45 / 11.25) = 1 + 4; available for 120 s: 1 + floor(120 / 67.5) = 2.
    expect(bmoPolls([{ state: 'inspecting', atMs: 0 }, { state: 'available', atMs: s(45) }], { startMs: 0, endMs: s(165) })).toBe(7);
  });

  it('puts the first registering reconcile into the one-off requests and ignores states without Ironic work', () => {
    // registering 7 s at 3 s: no entry poll + floor(7 / 3.375) = 2.
    expect(bmoPolls([{ state: '', atMs: 0 }, { state: 'registering', atMs: 0 }], { startMs: 0, endMs: s(7) })).toBe(2);
  });

  it('clips the timeline to the phase and averages requests per host', () => {
    const hosts = [[{ state: 'provisioning', atMs: -s(100) }], [{ state: 'provisioning', atMs: 0 }]];
    const estimate = bmoEstimate({ phase: 'provision', hosts, startMs: 0, endMs: s(22.5) });
    // each host: 1 + floor(22.5 / 11.25) = 3 polls -> 9 requests + 5 one-off.
    expect(estimate).toEqual({ pollsPerHost: 3, requestsPerHost: 9 + BMO_ONE_OFF_REQUESTS.provision });
  });
});

const phase = (startMs: number, seconds: number[]) => ({ startMs, endMs: startMs + s(Math.max(...seconds)), completions: seconds.map((x) => startMs + s(x)) });

function measuredRun(): MeasuredOperatorRun {
  const visits = (state: string, at: number) => [[{ state, atMs: at }], [{ state, atMs: at }]];
  return {
    label: 'poll 3s/10s',
    poll: { shortMs: 3000, longMs: 10000 },
    phases: {
      register: { ...phase(0, [20, 24]), visits: visits('inspecting', 0), ironic: { 'GET /v1/nodes/{node_ident}': 10, 'POST /v1/nodes': 2, 'GET /v1/nodes': 1 }, kube: { PATCH: 8, GET: 2 }, connectionsOpened: 2, cpuSeconds: 1.5, rssKiB: 90 * 1024, heapUsedBytes: 40 * 2 ** 20 },
      provision: { ...phase(s(30), [30, 40]), visits: visits('provisioning', s(30)), ironic: { 'PUT /v1/nodes/{node_ident}/states/provision': 4 }, kube: { PATCH: 6 }, connectionsOpened: 0, cpuSeconds: 1, rssKiB: 95 * 1024, heapUsedBytes: 41 * 2 ** 20 },
      deprovision: { ...phase(s(80), [10, 12]), visits: visits('deprovisioning', s(80)), ironic: { 'GET /v1/nodes/{node_ident}': 6 }, kube: { PATCH: 4 }, connectionsOpened: 0, cpuSeconds: 0.5, rssKiB: 96 * 1024, heapUsedBytes: 42 * 2 ** 20 },
    },
    deletion: { hosts: 2, deleted: 2, seconds: 6, kube: { DELETE: 2, PATCH: 4 }, connectionsOpened: 1, cpuSeconds: 0.25 },
    heap: { afterPhase: 'provision', totalMiB: 30, nodes: 1000, top: [{ name: 'Informer', count: 3, selfMiB: 0.5 }] },
    cpuSeconds: 4,
    peakRssKiB: 100 * 1024,
  };
}

const measuredFloor: MeasuredFloor = {
  pollMs: 1000,
  phases: {
    register: { ...phase(0, [16, 20]), ironic: { 'GET /v1/nodes': 20, 'POST /v1/nodes': 2 } },
    provision: { ...phase(0, [40, 40]), ironic: { 'GET /v1/nodes': 40 } },
    deprovision: { ...phase(0, [10, 10]), ironic: { 'GET /v1/nodes': 10 } },
  },
};

/** A two-host fake-hardware report on a two-core machine around these results. */
function report(results: Pick<BenchReport, 'floor' | 'runs' | 'notes'>): BenchReport {
  return {
    schema: 'metal3-ts-bench/v1',
    startedAt: '2026-05-09T10:00:00.000Z',
    finishedAt: '2026-05-09T10:05:00.000Z',
    machine: { cpus: 2, cpuModel: 'Test CPU', memoryGiB: 24, os: 'Linux 6', node: 'v24.0.0', loadAverageAtStart: 0.5 },
    settings: { mode: 'fake-hardware', hosts: 2, concurrency: 2, provisioningLimit: 20, floorPollMs: 1000, floorInFlight: 4, phaseTimeoutMs: 600_000 },
    ...results,
  };
}

describe('assembling and writing the report', () => {
  const floor = floorResult(measuredFloor);
  const run = operatorRun(measuredRun(), floor);

  it('gives per-host requests per phase, the ratio to the floor and lifecycle totals', () => {
    expect(floor.phases.register.ironic).toEqual({ total: 22, perHost: 11, byKeyPerHost: { 'GET /v1/nodes': 10, 'POST /v1/nodes': 1 } });
    expect(run.phases.register).toMatchObject({ seconds: 24, ratioToFloor: 1.2, ironic: { total: 13, perHost: 6.5 }, ironicNodeLists: 1, kube: { perHost: 5 }, kubeConnectionsOpened: 2, rssMiBAtEnd: 90 });
    expect(run.deletion).toMatchObject({ deleted: 2, seconds: 6, hostsPerMinute: 20, kube: { perHost: 3 }, kubeConnectionsOpened: 1 });
    expect(run.phases.provision.ratioToFloor).toBe(1);
    expect(run.phases.register.bmo?.requestsPerHost).toBeGreaterThan(BMO_ONE_OFF_REQUESTS.register);
    expect(run.lifecycle).toMatchObject({ ironicRequestsPerHost: 6.5 + 2 + 3, kubeRequestsPerHost: 5 + 3 + 2, cpuSeconds: 4, peakRssMiB: 100 });
    expect(run.lifecycle.bmoIronicRequestsPerHost).toBeCloseTo(
      (run.phases.register.bmo?.requestsPerHost ?? 0) + (run.phases.provision.bmo?.requestsPerHost ?? 0) + (run.phases.deprovision.bmo?.requestsPerHost ?? 0));
  });

  it('leaves Ironic figures out for the fixture provisioner', () => {
    const fixture = measuredRun();
    for (const name of ['register', 'provision', 'deprovision'] as const) delete fixture.phases[name].ironic;
    const result = operatorRun(fixture);
    expect(result.phases.register.ironic).toBeUndefined();
    expect(result.phases.register.bmo).toBeUndefined();
    expect(result.lifecycle.ironicRequestsPerHost).toBeUndefined();
  });

  it('renders the time, requests and process tables', () => {
    const markdown = renderMarkdown(report({ floor, runs: [run], notes: ['one host failed'] }));
    expect(markdown).toContain('### fake-hardware, N = 2 (2026-05-09)');
    expect(markdown).toContain('| created → available | 20.0 s | 6.0 | 24.0 s | 5.0 | 1.20× |');
    expect(markdown).toContain('| whole lifecycle | 36.0 | 11.5 |');
    expect(markdown).toContain('| deleted → gone | – | – | 6.0 s | 20.0 | – |');
    expect(markdown).toContain('| Kubernetes connections opened, created → available | 2 |');
    expect(markdown).toContain('| Ironic node lists (GET /v1/nodes), created → available | 1 |');
    expect(markdown).toContain('| Informer | 3 | 0.5 |');
    expect(markdown).toContain('| peak RSS (VmHWM), MiB | 100 |');
    expect(markdown).toContain('| RSS / V8 heap used, MiB, after created → available | 90 / 40 |');
    expect(markdown).toContain('| firmware reads per host | poll 3s/10s: GET …/bios | poll 3s/10s: GET …/firmware |'.replaceAll('poll 3s/10s', run.label));
    expect(markdown).toContain('| whole run | 0.0 | 0.0 |');
    expect(markdown).toContain('- one host failed');
    expect(markdown).toContain('with at most 4 requests open.');
  });

  it('says how often Ironic synced power, where the report knows', () => {
    const base = report({ floor, runs: [run], notes: [] });
    const markdown = renderMarkdown({ ...base, settings: { ...base.settings, ironicPowerSyncIntervalSeconds: 60 } });
    expect(markdown).toContain('with at most 4 requests open; Ironic syncs power every 60 s.');
  });

  it('shows where the cores went: each busy stack process per phase, the whole stack against phase seconds × cores, the operator', () => {
    const withStack = measuredRun();
    withStack.phases.register.stackCpu = { ironic: 20.04, 'kube-apiserver': 6, etcd: 2, sushy: 0.1 };
    const stackFloor: MeasuredFloor = { ...measuredFloor, phases: { ...measuredFloor.phases, register: { ...measuredFloor.phases.register, stackCpu: { ironic: 12, 'kube-apiserver': 0.2 } } } };
    const markdown = renderMarkdown(report({ floor: floorResult(stackFloor), runs: [operatorRun(withStack)], notes: [] }));
    // sushy never reached half a second, so it gets no column of its own (it still counts in the whole stack).
    expect(markdown).toContain('| CPU s in the phase (phase s × cores available) | floor: ironic | floor: kube-apiserver | floor: etcd | floor: whole stack | poll 3s/10s: ironic | poll 3s/10s: kube-apiserver | poll 3s/10s: etcd | poll 3s/10s: whole stack | poll 3s/10s: operator |');
    expect(markdown).toContain('| created → available | 12.0 | 0.2 | 0.0 | 12.2 of 40 | 20.0 | 6.0 | 2.0 | 28.1 of 48 | 1.5 |');
    // Not recorded (a report from before the column existed): a dash, not a zero.
    expect(markdown).toContain('| image set → provisioned | – | – | – | – | – | – | – | – | 1.0 |');
  });

  it('shows how many Ironic requests each client kept open on average: summed open time over the phase\'s length', () => {
    const withOpen = measuredRun();
    withOpen.phases.register.ironicOpenSeconds = { 'GET /v1/nodes/{node_ident}': 5.6, 'POST /v1/nodes': 40 }; // over 24 s
    const openFloor: MeasuredFloor = { ...measuredFloor, phases: { ...measuredFloor.phases, register: { ...measuredFloor.phases.register, ironicOpenSeconds: { 'POST /v1/nodes': 80 } } } };
    const floorWithOpen = floorResult(openFloor);
    const runWithOpen = operatorRun(withOpen, floorWithOpen);
    expect(floorWithOpen.phases.register.ironicRequestsOpen).toBe(4);
    expect(runWithOpen.phases.register.ironicRequestsOpen).toBe(1.9);
    const markdown = renderMarkdown(report({ floor: floorWithOpen, runs: [runWithOpen], notes: [] }));
    expect(markdown).toContain('| Ironic requests open on average (request time ÷ phase time) | floor | poll 3s/10s |');
    expect(markdown).toContain('| created → available | 4.0 | 1.9 |');
    // Not recorded: a dash, not a zero; and no table at all where nothing was recorded.
    expect(markdown).toContain('| image set → provisioned | – | – |');
    expect(renderMarkdown(report({ floor, runs: [run], notes: [] }))).not.toContain('requests open on average');
  });

  it('shows where each client\'s time waiting on Ironic went: seconds per host by route, longest first', () => {
    const withOpen = measuredRun();
    withOpen.phases.register.ironicOpenSeconds = { 'GET /v1/nodes/{node_ident}': 5.6, 'POST /v1/nodes': 40 };
    const openFloor: MeasuredFloor = { ...measuredFloor, phases: { ...measuredFloor.phases, register: { ...measuredFloor.phases.register, ironicOpenSeconds: { 'POST /v1/nodes': 80 } } } };
    const floorWithOpen = floorResult(openFloor);
    const runWithOpen = operatorRun(withOpen, floorWithOpen);
    const hosts = runWithOpen.phases.register.hosts;
    expect(runWithOpen.phases.register.ironicSecondsPerHost).toEqual({ 'GET /v1/nodes/{node_ident}': round2(5.6 / hosts), 'POST /v1/nodes': round2(40 / hosts) });
    const markdown = renderMarkdown(report({ floor: floorWithOpen, runs: [runWithOpen], notes: [] }));
    expect(markdown).toContain(`| Ironic request time per host, s: created → available | floor | poll 3s/10s |\n| --- | --- | --- |\n| \`POST /v1/nodes\` | ${(80 / hosts).toFixed(2)} | ${(40 / hosts).toFixed(2)} |\n| \`GET /v1/nodes/{node_ident}\` | 0.00 | ${(5.6 / hosts).toFixed(2)} |`);
    // Phases where neither client recorded it get no table.
    expect(markdown).not.toContain('Ironic request time per host, s: image set → provisioned');
  });

  it('with rounds, says so and shows each round\'s times after the first round\'s', () => {
    const rounds = summariseRounds([roundResult(floor, [run]), roundResult(floor, [run])]);
    const markdown = renderMarkdown({ ...report({ floor, runs: [run], notes: [] }), rounds });
    expect(markdown).toContain('Rounds: 2, the floor and the operator in turn;');
    expect(markdown).toContain(`| ${run.label}, by round: floor / operator, s (Ironic CPU s) | round 1: floor |`);
    expect(renderMarkdown(report({ floor, runs: [run], notes: [] }))).not.toContain('by round');
  });

  it('draws markdown tables', () => {
    expect(markdownTable(['a', 'b'], [['1', '2']])).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });
});
