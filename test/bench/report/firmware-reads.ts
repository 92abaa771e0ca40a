// How often the operator read each host's BIOS settings and firmware components from Ironic:
// the figure that shows the firmware controllers are cheap to watch (they read when the node
// can have changed, not on a timer).
import { markdownTable } from './markdown-table.ts';
import { PHASES, PHASE_TITLES } from './types.ts';
import type { BenchReport, OperatorRun, RequestCounts } from './types.ts';

export const BIOS_READ = 'GET /v1/nodes/{node_ident}/bios';
export const FIRMWARE_READ = 'GET /v1/nodes/{node_ident}/firmware';

const reads = (counts: RequestCounts | undefined, route: string): number => counts?.byKeyPerHost[route] ?? 0;

/** Per host, for each phase, the deletion and the whole run: [BIOS reads, firmware reads]. */
export function firmwareReadsPerHost(run: OperatorRun): Array<{ title: string; bios: number; firmware: number }> {
  const rows = PHASES.map((phase) => ({
    title: PHASE_TITLES[phase],
    bios: reads(run.phases[phase].ironic, BIOS_READ),
    firmware: reads(run.phases[phase].ironic, FIRMWARE_READ),
  }));
  if (run.deletion) rows.push({ title: 'deleted → gone', bios: reads(run.deletion.ironic, BIOS_READ), firmware: reads(run.deletion.ironic, FIRMWARE_READ) });
  const total = (pick: 'bios' | 'firmware') => Math.round(rows.reduce((sum, row) => sum + row[pick], 0) * 100) / 100;
  return [...rows, { title: 'whole run', bios: total('bios'), firmware: total('firmware') }];
}

/** The table, for the modes with Ironic. */
export function firmwareReadsTable(report: BenchReport): string | undefined {
  if (report.settings.mode === 'fixture' || report.runs.length === 0) return undefined;
  const header = ['firmware reads per host', ...report.runs.flatMap((run) => [`${run.label}: GET …/bios`, `${run.label}: GET …/firmware`])];
  const perRun = report.runs.map(firmwareReadsPerHost);
  const rows = perRun[0]!.map((row, index) => [row.title, ...perRun.flatMap((runRows) => [runRows[index]!.bios.toFixed(1), runRows[index]!.firmware.toFixed(1)])]);
  return markdownTable(header, rows);
}
