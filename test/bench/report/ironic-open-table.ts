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

/**
 * Per phase, each route's open time per host for the floor and each run, longest first: where
 * a client's time waiting on Ironic goes, so the requests worth cutting or overlapping show.
 */
export function ironicTimeByRouteTables(report: BenchReport): string[] {
  const columns = [
    ...(report.floor ? [{ label: 'floor', phases: report.floor.phases }] : []),
    ...report.runs.map((run) => ({ label: run.label, phases: run.phases })),
  ];
  return PHASES.flatMap((phase) => {
    const byColumn = columns.map((column) => column.phases[phase].ironicSecondsPerHost);
    if (byColumn.every((seconds) => seconds === undefined)) return [];
    const routes = new Set(byColumn.flatMap((seconds) => Object.keys(seconds ?? {})));
    const longest = (route: string): number => Math.max(...byColumn.map((seconds) => seconds?.[route] ?? 0));
    const rows = [...routes].sort((a, b) => longest(b) - longest(a) || a.localeCompare(b)).map((route) => [
      `\`${route}\``,
      ...byColumn.map((seconds) => (seconds === undefined ? '–' : (seconds[route] ?? 0).toFixed(2))),
    ]);
    return [markdownTable([`Ironic request time per host, s: ${PHASE_TITLES[phase]}`, ...columns.map((column) => column.label)], rows)];
  });
}
