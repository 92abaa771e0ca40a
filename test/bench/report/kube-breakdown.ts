// Kubernetes requests per host by verb and resource (`patch baremetalhosts/status`), per phase:
// which writes and reads a host's life costs, the figure to cut them by.
import { markdownTable } from './markdown-table.ts';
import { PHASES, PHASE_TITLES } from './types.ts';
import type { OperatorRun } from './types.ts';

export interface KubeBreakdownRow {
  /** `verb resource`, e.g. `patch baremetalhosts/status`. */
  key: string;
  /** Per host, one per phase (PHASES order). */
  phases: number[];
  /** The three phases together (what `kubeRequestsPerHost` sums). */
  lifecycle: number;
  deletion: number | undefined;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** Rows by key, most requests over the lifecycle first (ties by key). */
export function kubeBreakdown(run: OperatorRun): KubeBreakdownRow[] {
  const keys = new Set<string>();
  for (const phase of PHASES) for (const key of Object.keys(run.phases[phase].kube.byKeyPerHost)) keys.add(key);
  for (const key of Object.keys(run.deletion?.kube.byKeyPerHost ?? {})) keys.add(key);
  const rows = [...keys].map((key) => {
    const phases = PHASES.map((phase) => run.phases[phase].kube.byKeyPerHost[key] ?? 0);
    return {
      key,
      phases,
      lifecycle: round2(phases.reduce((sum, value) => sum + value, 0)),
      deletion: run.deletion ? (run.deletion.kube.byKeyPerHost[key] ?? 0) : undefined,
    };
  });
  return rows.sort((a, b) => b.lifecycle - a.lifecycle || (b.deletion ?? 0) - (a.deletion ?? 0) || a.key.localeCompare(b.key));
}

export function kubeBreakdownTable(run: OperatorRun): string {
  const header = [`${run.label}: Kubernetes requests per host`, ...PHASES.map((phase) => PHASE_TITLES[phase]), 'whole lifecycle', 'deleted → gone'];
  const cell = (value: number | undefined): string => (value === undefined ? '–' : value.toFixed(2));
  const rows = kubeBreakdown(run).map((row) => [`\`${row.key}\``, ...row.phases.map(cell), cell(row.lifecycle), cell(row.deletion)]);
  return markdownTable(header, rows);
}
