import { describe, expect, it } from '@jest/globals';
import { errorBackoffMs, withJitter } from './backoff.ts';

const minutes = (n: number) => n * 60_000;

describe('error backoff', () => {
  it('waits 2^errorCount minutes, minus up to half at random', () => {
    expect(errorBackoffMs(1, () => 0)).toBe(minutes(2));
    expect(errorBackoffMs(1, () => 0.999999)).toBeGreaterThanOrEqual(minutes(1));
    expect(errorBackoffMs(3, () => 0.5)).toBe(minutes(6));
    expect(errorBackoffMs(4, () => 0)).toBe(minutes(16));
  });

  it('stops growing at 9 failures (about 8.5 hours)', () => {
    expect(errorBackoffMs(9, () => 0)).toBe(minutes(512));
    expect(errorBackoffMs(25, () => 0)).toBe(minutes(512));
    expect(errorBackoffMs(25, () => 1)).toBe(minutes(256));
  });

  it('treats no failures as one minute', () => {
    expect(errorBackoffMs(0, () => 0)).toBe(minutes(1));
  });

  it('jitters short delays by up to +25 %', () => {
    expect(withJitter(10_000, () => 0)).toBe(10_000);
    expect(withJitter(10_000, () => 1)).toBe(12_500);
  });
});
