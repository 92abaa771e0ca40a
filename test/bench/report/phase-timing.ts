// Per-phase figures from the moments each host reached the phase's target.
import { round2 } from '../metrics/counter-totals.ts';
import type { PhaseTiming } from './types.ts';

/** Nearest-rank percentile of sorted values; 0 when empty. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1] as number;
}

export interface PhaseTimingInput {
  startMs: number;
  /** When the wait ended: the last completion, or the timeout. */
  endMs: number;
  /** Per host: when it reached the target, or undefined if it never did. */
  completions: ReadonlyArray<number | undefined>;
}

export function phaseTiming(input: PhaseTimingInput): PhaseTiming {
  const done = input.completions.filter((at): at is number => at !== undefined);
  const durations = done.map((at) => (at - input.startMs) / 1000).sort((a, b) => a - b);
  const allDone = done.length === input.completions.length && done.length > 0;
  const seconds = allDone ? (durations.at(-1) as number) : (input.endMs - input.startMs) / 1000;
  return {
    hosts: input.completions.length,
    completed: done.length,
    seconds: round2(seconds),
    hostsPerMinute: seconds > 0 ? round2(done.length / (seconds / 60)) : 0,
    perHostSeconds: {
      p50: round2(percentile(durations, 0.5)),
      p90: round2(percentile(durations, 0.9)),
      max: round2(durations.at(-1) ?? 0),
    },
  };
}

/** Operator time as a multiple of the floor's; undefined when either did not finish. */
export function ratioToFloor(operator: PhaseTiming, floor: PhaseTiming | undefined): number | undefined {
  if (!floor || floor.seconds <= 0 || operator.completed < operator.hosts || floor.completed < floor.hosts) return undefined;
  return round2(operator.seconds / floor.seconds);
}
