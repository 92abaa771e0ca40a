/**
 * How hard the fault suite pushes: `small` (the default, what CI runs) keeps every file quick;
 * `METAL3_TS_FAULTS_SCALE=large` runs the counts the README reports.
 */
export type FaultScale = 'small' | 'large';

export function faultScale(): FaultScale {
  const value = process.env['METAL3_TS_FAULTS_SCALE'] ?? 'small';
  if (value !== 'small' && value !== 'large') throw new Error(`METAL3_TS_FAULTS_SCALE must be "small" or "large", not ${JSON.stringify(value)}`);
  return value;
}

/** The count for the current scale. */
export function byFaultScale<T>(counts: { small: T; large: T }): T {
  return counts[faultScale()];
}

/**
 * Generated inputs per property: the large run's 20,000 over the suite's properties add up to
 * well over 100,000 hostile inputs.
 */
export function propertyRuns(): number {
  return byFaultScale({ small: 300, large: 20_000 });
}
