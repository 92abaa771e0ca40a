import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseBenchArgs } from '../../bench/options.ts';
import { runBench } from '../../bench/run-bench.ts';
import { PHASES } from '../../bench/report/types.ts';
import { writeReport } from '../../bench/report/write-report.ts';
import { readStackEnv } from '../../support/stack-env.ts';

// Keeps `npm run bench` working: two fake-hardware hosts through the floor and one operator
// run on the shared test stack, twice in turn (`--rounds 2`). Only the report's shape and
// non-zero counts are checked, never a time: CI machines are too noisy for that.
const env = readStackEnv();

describe('the scale benchmark', () => {
  it('runs two fake-hardware hosts through the floor and the operator, twice in turn, and writes its report', async () => {
    const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
    const options = parseBenchArgs(['--hosts', '2', '--mode', 'fake-hardware', '--poll', '1s/2s', '--phase-timeout', '3m', '--rounds', '2', '--out', out]);
    const report = await runBench(options, { env, log: () => undefined });
    const paths = writeReport(report, out);

    expect(report.notes).toEqual([]);
    expect(report.settings).toMatchObject({ mode: 'fake-hardware', hosts: 2 });
    expect(report.machine.cpus).toBeGreaterThan(0);
    for (const phase of PHASES) {
      const floor = report.floor?.phases[phase];
      expect(floor).toMatchObject({ hosts: 2, completed: 2 });
      expect(floor?.ironic.perHost).toBeGreaterThan(0);
      expect(floor?.ironicRequestsOpen).toBeGreaterThan(0);
      const operator = report.runs[0]?.phases[phase];
      expect(operator).toMatchObject({ hosts: 2, completed: 2 });
      expect(operator?.ironic?.perHost).toBeGreaterThan(0);
      expect(operator?.ironicRequestsOpen).toBeGreaterThan(0);
      // Both clients' time waiting on Ironic, split by route: each moved a node's provision state.
      expect(floor?.ironicSecondsPerHost?.['PUT /v1/nodes/{node_ident}/states/provision']).toBeGreaterThan(0);
      expect(operator?.ironicSecondsPerHost?.['PUT /v1/nodes/{node_ident}/states/provision']).toBeGreaterThan(0);
      expect(operator?.kube.perHost).toBeGreaterThan(0);
      expect(operator?.bmo?.requestsPerHost).toBeGreaterThan(0);
      expect(operator?.ratioToFloor).toEqual(expect.any(Number));
    }
    expect(report.runs).toHaveLength(1);
    expect(report.rounds?.rounds).toHaveLength(2);
    for (const round of report.rounds?.rounds ?? []) {
      for (const phase of PHASES) {
        expect(round.floor?.[phase].seconds).toBeGreaterThan(0);
        expect(round.runs[0]?.phases[phase].ratioToFloor).toEqual(expect.any(Number));
      }
    }
    expect(report.rounds?.medianRatios[0]?.phases.register).toEqual(expect.any(Number));
    expect(report.runs[0]?.lifecycle.cpuSeconds).toBeGreaterThan(0);
    expect(report.runs[0]?.lifecycle.peakRssMiB).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(paths.json, 'utf8'))).toEqual(report);
    expect(readFileSync(paths.markdown, 'utf8')).toContain('| created → available |');
    expect(readFileSync(paths.markdown, 'utf8')).toContain('Rounds: 2, the floor and the operator in turn;');
    expect(readFileSync(paths.markdown, 'utf8')).toContain('| Ironic requests open on average (request time ÷ phase time) | floor |');
    expect(readFileSync(paths.markdown, 'utf8')).toContain('| Ironic request time per host, s: image set → provisioned | floor |');
  }, 480_000);
});
