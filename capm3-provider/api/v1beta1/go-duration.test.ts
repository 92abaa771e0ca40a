import { describe, expect, it } from '@jest/globals';
import { formatGoDuration, parseGoDurationSeconds } from './go-duration.ts';

describe('Go durations', () => {
  it.each([
    ['600s', 600], ['10m', 600], ['10m0s', 600], ['1h30m', 5400], ['1.5h', 5400], ['90s', 90], ['0', 0], ['0s', 0],
    ['1500ms', 1.5], ['-5s', -5], ['2h3m4s', 7384], ['3\u00b5s', 3e-6], ['3\u03bcs', 3e-6], ['4us', 4e-6],
  ])('reads %s as %d seconds', (text, seconds) => {
    expect(parseGoDurationSeconds(text)).toBeCloseTo(seconds, 9);
  });

  it.each(['', 'soon', '10', '5 m', 'm5', '1d', '3s5'])('refuses %j', (text) => {
    expect(parseGoDurationSeconds(text)).toBeUndefined();
  });

  it.each([[0, '0s'], [45, '45s'], [600, '10m0s'], [90, '1m30s'], [3600, '1h0m0s'], [5430, '1h30m30s']])('writes %d seconds as %s', (seconds, text) => {
    expect(formatGoDuration(seconds)).toBe(text);
    expect(parseGoDurationSeconds(text)).toBe(seconds);
  });
});
