// How many requests each client kept open at Ironic on average in each phase: their summed time
// open over the phase's length. With Ironic the bottleneck, a client that keeps fewer open than
// the floor leaves Ironic idle between them, so its own concurrency bounds the phase.
import { markdownTable } from './markdown-table.ts';
import { PHASES, PHASE_TITLES } from './types.ts';
import type { BenchReport } from './types.ts';

const cell = (value: number | undefined): string => (value === undefined ? '–' : value.toFixed(1));

/** The table, when the runs recorded how long their Ironic requests were open. */
export function ironicOpenTable(report: BenchReport): string | undefined {
  const floor = report.floor;
  const recorded = [
    ...PHASES.map((phase) => floor?.phases[phase].ironicRequestsOpen),
    ...report.runs.flatMap((run) => PHASES.map((phase) => run.phases[phase].ironicRequestsOpen)),
  ];
  if (recorded.every((value) => value === undefined)) return undefined;
  const header = ['Ironic requests open on average (request time ÷ phase time)', ...(floor ? ['floor'] : []), ...report.runs.map((run) => run.label)];
  const rows = PHASES.map((phase) => [
    PHASE_TITLES[phase],
    ...(floor ? [cell(floor.phases[phase].ironicRequestsOpen)] : []),
    ...report.runs.map((run) => cell(run.phases[phase].ironicRequestsOpen)),
  ]);
  return markdownTable(header, rows);
}
