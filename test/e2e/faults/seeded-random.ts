/**
 * A seeded random source for fault timing, so a failing run can be replayed: the seed comes from
 * METAL3_TS_FAULTS_SEED or the clock, and the test prints it.
 */
export interface SeededRandom {
  seed: number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
}

export function seededRandom(): SeededRandom {
  const seed = Number(process.env['METAL3_TS_FAULTS_SEED'] ?? Date.now() % 2 ** 31);
  let state = seed;
  // mulberry32: small, fast, good enough for timing.
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { seed, between: (min, max) => min + next() * (max - min) };
}
