// The report as markdown: small tables (time, requests per host, operator process, firmware reads).
import { firmwareReadsTable } from './firmware-reads.ts';
import { ironicOpenTable, ironicTimeByRouteTables } from './ironic-open-table.ts';
import { kubeBreakdownTable } from './kube-breakdown.ts';
import { markdownTable } from './markdown-table.ts';
import { roundsTables } from './rounds.ts';
import { stackCpuTable } from './stack-cpu-table.ts';
import { PHASES, PHASE_TITLES } from './types.ts';
import type { BenchReport, OperatorRun, PhaseTiming } from './types.ts';

export { markdownTable } from './markdown-table.ts';

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
  if (report.runs.some((run) => run.deletion)) {
    const cells = ['deleted → gone', ...(floor ? ['–', '–'] : [])];
    for (const run of report.runs) {
      const deletion = run.deletion;
      const left = deletion && deletion.deleted < deletion.hosts ? ` (${deletion.deleted}/${deletion.hosts} done)` : '';
      cells.push(deletion ? `${num(deletion.seconds)} s${left}` : '–', num(deletion?.hostsPerMinute), ...(floor ? ['–'] : []));
    }
    rows.push(cells);
  }
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
    ['CPU s, deleted → gone', ...report.runs.map((run) => num(run.deletion?.cpuSeconds))],
    ['CPU s, whole run', ...report.runs.map((run) => num(run.lifecycle.cpuSeconds))],
    ['peak RSS (VmHWM), MiB', ...report.runs.map((run) => num(run.lifecycle.peakRssMiB, 0))],
    ...PHASES.map((phase) => [`RSS / V8 heap used, MiB, after ${PHASE_TITLES[phase]}`,
      ...report.runs.map((run) => `${num(run.phases[phase].rssMiBAtEnd, 0)} / ${num(run.phases[phase].heapUsedMiBAtEnd, 0)}`)]),
    ...PHASES.map((phase) => [`Kubernetes connections opened, ${PHASE_TITLES[phase]}`, ...report.runs.map((run) => String(run.phases[phase].kubeConnectionsOpened))]),
    ['Kubernetes connections opened, deleted → gone', ...report.runs.map((run) => (run.deletion ? String(run.deletion.kubeConnectionsOpened) : '–'))],
  ];
  if (report.settings.mode !== 'fixture') {
    rows.push(...PHASES.map((phase) => [`Ironic node lists (GET /v1/nodes), ${PHASE_TITLES[phase]}`,
      ...report.runs.map((run) => String(run.phases[phase].ironicNodeLists ?? '–'))]));
  }
  return markdownTable(header, rows);
}

function heapTable(run: OperatorRun): string | undefined {
  const heap = run.heap;
  if (!heap) return undefined;
  const title = `${run.label}: V8 heap after ${PHASE_TITLES[heap.afterPhase]} (snapshot, self sizes), ${num(heap.totalMiB)} MiB in ${heap.nodes} objects`;
  return `${title}\n\n${markdownTable(['constructor or kind', 'objects', 'MiB'], heap.top.map((category) => [category.name, String(category.count), num(category.selfMiB)]))}`;
}

export function renderMarkdown(report: BenchReport): string {
  const { machine, settings } = report;
  const date = report.startedAt.slice(0, 10);
  const ironicOpen = ironicOpenTable(report);
  const lines = [
    `### ${settings.mode}, N = ${settings.hosts} (${date})`,
    '',
    `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}; ` +
      `load average ${machine.loadAverageAtStart} at start. Operator: ` +
      Object.entries(settings.operatorProcessEnv ?? {}).map(([name, value]) => `${name}=${value} `).join('') +
      (settings.operatorNodeFlags ? `node ${settings.operatorNodeFlags.join(' ')}, ` : '') +
      `BMO_CONCURRENCY=${settings.concurrency}, ` +
      `PROVISIONING_LIMIT=${settings.provisioningLimit}` +
      (report.floor ? `; the floor lists node states every ${report.floor.pollMs} ms with at most ${settings.floorInFlight} requests open` : '') +
      (settings.ironicPowerSyncIntervalSeconds !== undefined ? `; Ironic syncs power every ${settings.ironicPowerSyncIntervalSeconds} s.` : '.'),
    '',
    ...(report.rounds ? [`Rounds: ${report.rounds.rounds.length}, the floor and the operator in turn; the tables below the rounds' are the first round's.`, ''] : []),
    timeTable(report),
    '',
    ...(report.rounds ? roundsTables(report.rounds).flatMap((table) => [table, '']) : []),
    requestsTable(report),
    '',
    ...(ironicOpen ? [ironicOpen, ''] : []),
    ...ironicTimeByRouteTables(report).flatMap((table) => [table, '']),
    processTable(report),
  ];
  for (const run of report.runs) lines.push('', kubeBreakdownTable(run));
  const stackCpu = stackCpuTable(report);
  if (stackCpu) lines.push('', stackCpu);
  const firmwareReads = firmwareReadsTable(report);
  if (firmwareReads) lines.push('', firmwareReads);
  for (const table of report.runs.map(heapTable)) if (table) lines.push('', table);
  if (report.notes.length > 0) lines.push('', ...report.notes.map((note) => `- ${note}`));
  return `${lines.join('\n')}\n`;
}
