// The report as markdown: three small tables (time, requests per host, operator process).
import { PHASES, PHASE_TITLES } from './types.ts';
import type { BenchReport, OperatorRun, PhaseTiming } from './types.ts';

export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const num = (value: number | undefined, digits = 1): string => (value === undefined ? '–' : value.toFixed(digits));

function time(timing: PhaseTiming | undefined): string {
  if (!timing) return '–';
  const incomplete = timing.completed < timing.hosts ? ` (${timing.completed}/${timing.hosts} done)` : '';
  return `${num(timing.seconds)} s${incomplete}`;
}

function timeTable(report: BenchReport): string {
  const floor = report.floor;
  const header = ['phase', ...(floor ? ['floor', 'floor hosts/min'] : [])];
  for (const run of report.runs) header.push(run.label, 'hosts/min', ...(floor ? ['× floor'] : []));
  const rows = PHASES.map((phase) => {
    const cells = [PHASE_TITLES[phase]];
    if (floor) cells.push(time(floor.phases[phase]), num(floor.phases[phase].hostsPerMinute));
    for (const run of report.runs) {
      const timing = run.phases[phase];
      cells.push(time(timing), num(timing.hostsPerMinute));
      if (floor) cells.push(timing.ratioToFloor === undefined ? '–' : `${timing.ratioToFloor.toFixed(2)}×`);
    }
    return cells;
  });
  return markdownTable(header, rows);
}

function requestsTable(report: BenchReport): string {
  const floor = report.floor;
  const withIronic = report.settings.mode !== 'fixture';
  const header = ['requests per host', ...(floor ? ['floor: Ironic'] : [])];
  for (const run of report.runs) {
    if (withIronic) header.push(`${run.label}: Ironic`, 'BMO cadence (est.)');
    header.push(`${run.label}: Kubernetes`);
  }
  const row = (title: string, pick: (run: OperatorRun) => [number | undefined, number | undefined, number], floorValue: number | undefined) => {
    const cells = [title, ...(floor ? [num(floorValue)] : [])];
    for (const run of report.runs) {
      const [ironic, bmo, kube] = pick(run);
      if (withIronic) cells.push(num(ironic), num(bmo));
      cells.push(num(kube));
    }
    return cells;
  };
  const rows = PHASES.map((phase) =>
    row(PHASE_TITLES[phase], (run) => [run.phases[phase].ironic?.perHost, run.phases[phase].bmo?.requestsPerHost, run.phases[phase].kube.perHost],
      floor?.phases[phase].ironic.perHost));
  const floorLifecycle = floor ? PHASES.reduce((sum, phase) => sum + floor.phases[phase].ironic.perHost, 0) : undefined;
  rows.push(row('whole lifecycle', (run) => [run.lifecycle.ironicRequestsPerHost, run.lifecycle.bmoIronicRequestsPerHost, run.lifecycle.kubeRequestsPerHost],
    floorLifecycle));
  return markdownTable(header, rows);
}

function processTable(report: BenchReport): string {
  const header = ['operator process', ...report.runs.map((run) => run.label)];
  const rows = [
    ...PHASES.map((phase) => [`CPU s, ${PHASE_TITLES[phase]}`, ...report.runs.map((run) => num(run.phases[phase].cpuSeconds))]),
    ['CPU s, whole run', ...report.runs.map((run) => num(run.lifecycle.cpuSeconds))],
    ['peak RSS (VmHWM), MiB', ...report.runs.map((run) => num(run.lifecycle.peakRssMiB, 0))],
    ...PHASES.map((phase) => [`RSS / V8 heap used, MiB, after ${PHASE_TITLES[phase]}`,
      ...report.runs.map((run) => `${num(run.phases[phase].rssMiBAtEnd, 0)} / ${num(run.phases[phase].heapUsedMiBAtEnd, 0)}`)]),
  ];
  return markdownTable(header, rows);
}

export function renderMarkdown(report: BenchReport): string {
  const { machine, settings } = report;
  const date = report.startedAt.slice(0, 10);
  const lines = [
    `### ${settings.mode}, N = ${settings.hosts} (${date})`,
    '',
    `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}; ` +
      `load average ${machine.loadAverageAtStart} at start. Operator: BMO_CONCURRENCY=${settings.concurrency}, ` +
      `PROVISIONING_LIMIT=${settings.provisioningLimit}` +
      (report.floor ? `; the floor lists node states every ${report.floor.pollMs} ms with at most ${settings.floorInFlight} requests open.` : '.'),
    '',
    timeTable(report),
    '',
    requestsTable(report),
    '',
    processTable(report),
  ];
  if (report.notes.length > 0) lines.push('', ...report.notes.map((note) => `- ${note}`));
  return `${lines.join('\n')}\n`;
}
