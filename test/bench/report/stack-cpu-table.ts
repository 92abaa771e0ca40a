// Where the machine's cores went in each phase: the CPU seconds of the stack's processes (Ironic,
// the Kubernetes API server, etcd, the emulated BMCs) for the floor and for each operator run,
// next to the operator's own. A phase whose processes together used about all the cores for its
// whole length was bound by the machine, not by waiting.
import type { Totals } from '../metrics/counter-totals.ts';
import { markdownTable } from './markdown-table.ts';
import { PHASES, PHASE_TITLES } from './types.ts';
import type { BenchReport } from './types.ts';

/** Components worth a column: those that used at least this much CPU in some phase of some run. */
const MIN_SECONDS = 0.5;

function busiest(all: ReadonlyArray<Totals | undefined>): string[] {
  const seconds = new Map<string, number>();
  for (const totals of all) for (const [name, value] of Object.entries(totals ?? {})) seconds.set(name, Math.max(seconds.get(name) ?? 0, value));
  return [...seconds].filter(([, value]) => value >= MIN_SECONDS).sort((a, b) => b[1] - a[1]).map(([name]) => name);
}

const sum = (totals: Totals): number => Object.values(totals).reduce((total, value) => total + value, 0);

/** The table, when the runs recorded the stack's CPU. */
export function stackCpuTable(report: BenchReport): string | undefined {
  const floor = report.floor;
  const recorded = [...PHASES.map((phase) => floor?.phases[phase].stackCpuSeconds), ...report.runs.flatMap((run) => PHASES.map((phase) => run.phases[phase].stackCpuSeconds))];
  if (recorded.every((totals) => totals === undefined)) return undefined;
  const names = busiest(recorded);
  const header = ['CPU s in the phase (phase s × cores available)'];
  if (floor) header.push(...names.map((name) => `floor: ${name}`), 'floor: whole stack');
  for (const run of report.runs) header.push(...names.map((name) => `${run.label}: ${name}`), `${run.label}: whole stack`, `${run.label}: operator`);
  const rows = PHASES.map((phase) => {
    const cells = [PHASE_TITLES[phase]];
    const cell = (totals: Totals | undefined, seconds: number) => (totals === undefined
      ? [...names.map(() => '–'), '–']
      : [...names.map((name) => (totals[name] ?? 0).toFixed(1)), `${sum(totals).toFixed(1)} of ${(seconds * report.machine.cpus).toFixed(0)}`]);
    if (floor) cells.push(...cell(floor.phases[phase].stackCpuSeconds, floor.phases[phase].seconds));
    for (const run of report.runs) cells.push(...cell(run.phases[phase].stackCpuSeconds, run.phases[phase].seconds), run.phases[phase].cpuSeconds.toFixed(1));
    return cells;
  });
  return markdownTable(header, rows);
}
