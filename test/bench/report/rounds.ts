// `--rounds`: the floor and the operator taken in turn several times on one stack. Ironic's CPU
// for the same work drifts by up to half between minutes, so each round's ratio compares runs
// minutes apart at most, and the median of the rounds is the figure to judge by.
import { mapPhases } from './assemble.ts';
import { markdownTable } from './markdown-table.ts';
import { percentile } from './phase-timing.ts';
import { PHASES, PHASE_TITLES } from './types.ts';
import type { FloorResult, OperatorRun, PhaseName, RoundPhase, RoundResult, RoundsSummary } from './types.ts';

const ironicCpu = (cpu: Record<string, number> | undefined): Pick<RoundPhase, 'ironicCpuSeconds'> =>
  cpu?.['ironic'] === undefined ? {} : { ironicCpuSeconds: cpu['ironic'] };

export function roundResult(floor: FloorResult | undefined, runs: readonly OperatorRun[]): RoundResult {
  return {
    ...(floor ? { floor: mapPhases((phase) => ({ seconds: floor.phases[phase].seconds, ...ironicCpu(floor.phases[phase].stackCpuSeconds) })) } : {}),
    runs: runs.map((run) => ({
      label: run.label,
      phases: mapPhases((phase) => {
        const timing = run.phases[phase];
        return {
          seconds: timing.seconds,
          ...ironicCpu(timing.stackCpuSeconds),
          ...(timing.ratioToFloor === undefined ? {} : { ratioToFloor: timing.ratioToFloor }),
        };
      }),
    })),
  };
}

/** The lower median where the count is even; a phase no round has a ratio for is left out. */
export function summariseRounds(rounds: RoundResult[]): RoundsSummary {
  const labels = [...new Set(rounds.flatMap((round) => round.runs.map((run) => run.label)))];
  const medianRatios = labels.map((label) => {
    const phases: Partial<Record<PhaseName, number>> = {};
    for (const phase of PHASES) {
      const ratios = rounds
        .map((round) => round.runs.find((run) => run.label === label)?.phases[phase].ratioToFloor)
        .filter((ratio): ratio is number => ratio !== undefined)
        .sort((a, b) => a - b);
      if (ratios.length > 0) phases[phase] = percentile(ratios, 0.5);
    }
    return { label, phases };
  });
  return { rounds, medianRatios };
}

const seconds = (phase: RoundPhase | undefined): string =>
  phase === undefined ? '–' : `${phase.seconds.toFixed(1)} s${phase.ironicCpuSeconds === undefined ? '' : ` (${phase.ironicCpuSeconds.toFixed(1)})`}`;

/** Per operator run: each round's floor and operator seconds (Ironic CPU seconds) and ratio, then the median ratio. */
export function roundsTables(summary: RoundsSummary): string[] {
  return summary.medianRatios.map(({ label, phases: medians }) => {
    const header = [`${label}, by round: floor / operator, s (Ironic CPU s)`];
    summary.rounds.forEach((_, index) => header.push(`round ${index + 1}: floor`, 'operator', '×'));
    header.push('median ×');
    const rows = PHASES.map((phase) => {
      const cells = [PHASE_TITLES[phase]];
      for (const round of summary.rounds) {
        const run = round.runs.find((candidate) => candidate.label === label)?.phases[phase];
        cells.push(seconds(round.floor?.[phase]), seconds(run), run?.ratioToFloor === undefined ? '–' : `${run.ratioToFloor.toFixed(2)}×`);
      }
      const median = medians[phase];
      cells.push(median === undefined ? '–' : `${median.toFixed(2)}×`);
      return cells;
    });
    return markdownTable(header, rows);
  });
}
