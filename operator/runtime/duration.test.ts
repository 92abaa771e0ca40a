import { describe, it, expect } from '@jest/globals';
import { parseDuration, toMilliseconds } from './duration.ts';

describe('parseDuration', () => {
  it('parses Go-style durations', () => {
    expect(parseDuration('10s')).toBe(10_000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('0')).toBe(0);
    // Go's micro units: us, the micro sign and the Greek mu.
    expect(parseDuration('1500us')).toBe(1.5);
    expect(parseDuration('1500\u00b5s')).toBe(1.5);
    expect(parseDuration('1500\u03bcs')).toBe(1.5);
  });

  it('rejects numbers without units and garbage', () => {
    expect(() => parseDuration('10')).toThrow(/invalid duration/);
    expect(() => parseDuration('10x')).toThrow(/invalid duration/);
    expect(() => parseDuration('s10')).toThrow(/invalid duration/);
    expect(() => parseDuration('')).toThrow(/empty/);
  });
});

describe('toMilliseconds', () => {
  it('passes numbers through and parses strings', () => {
    expect(toMilliseconds(250)).toBe(250);
    expect(toMilliseconds('1m')).toBe(60_000);
    expect(() => toMilliseconds(-1)).toThrow();
  });
});
