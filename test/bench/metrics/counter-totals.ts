// Counter totals keyed by chosen labels, and their difference between two scrapes.
import type { Sample } from './prometheus-text.ts';

/** e.g. `{ 'GET /v1/nodes/{node_ident}': 12 }` for keys ['method', 'route']. */
export type Totals = Record<string, number>;

export function counterTotals(samples: readonly Sample[], options: { name: string; keyLabels: readonly string[] }): Totals {
  const totals: Totals = {};
  for (const sample of samples) {
    if (sample.name !== options.name) continue;
    const key = options.keyLabels.map((label) => sample.labels[label] ?? '').join(' ');
    totals[key] = (totals[key] ?? 0) + sample.value;
  }
  return totals;
}

/** after - before per key; keys that did not move are left out. */
export function diffTotals(after: Totals, before: Totals): Totals {
  const diff: Totals = {};
  for (const [key, value] of Object.entries(after)) {
    const delta = value - (before[key] ?? 0);
    if (delta !== 0) diff[key] = delta;
  }
  return diff;
}

export function sumTotals(totals: Totals): number {
  return Object.values(totals).reduce((sum, value) => sum + value, 0);
}

export function addTotals(...all: Totals[]): Totals {
  const sum: Totals = {};
  for (const totals of all) for (const [key, value] of Object.entries(totals)) sum[key] = (sum[key] ?? 0) + value;
  return sum;
}

/** Each value divided by `by` (requests per host), rounded to 2 decimals. */
export function perHost(totals: Totals, by: number): Totals {
  return Object.fromEntries(Object.entries(totals).map(([key, value]) => [key, round2(value / by)]));
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
