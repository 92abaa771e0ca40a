import { describe, it, expect } from '@jest/globals';
import { Backoff, jittered } from './backoff.ts';

describe('Backoff', () => {
  it('doubles up to the cap and starts over after reset', () => {
    const backoff = new Backoff({ initialMs: 100, maxMs: 500 });
    expect([backoff.next(), backoff.next(), backoff.next(), backoff.next(), backoff.next()]).toEqual([
      100, 200, 400, 500, 500,
    ]);
    backoff.reset();
    expect(backoff.next()).toBe(100);
  });

  it('adds jitter on top of the base delay', () => {
    const backoff = new Backoff({ initialMs: 100, maxMs: 1000, jitter: 0.5, random: () => 0.5 });
    expect(backoff.next()).toBe(125);
  });
});

describe('jittered', () => {
  it('spreads a period symmetrically', () => {
    expect(jittered(1000, 0.1, () => 0)).toBe(900);
    expect(jittered(1000, 0.1, () => 0.5)).toBe(1000);
    expect(jittered(1000, 0.1, () => 1)).toBe(1100);
  });
});
