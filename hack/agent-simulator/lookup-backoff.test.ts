import { describe, expect, it } from '@jest/globals';
import { EAGER_LOOKUP_MS, MAX_LOOKUP_INTERVAL_MS, nextLookupDelayMs } from './lookup-backoff.ts';

describe('nextLookupDelayMs', () => {
  it('keeps the starting interval for the first minute', () => {
    expect(nextLookupDelayMs({ startingIntervalMs: 1000, previousDelayMs: undefined, lookingUpForMs: 0 })).toBe(1000);
    expect(nextLookupDelayMs({ startingIntervalMs: 1000, previousDelayMs: 1000, lookingUpForMs: EAGER_LOOKUP_MS - 1 })).toBe(1000);
  });

  it('then doubles up to IPA\'s 30 s cap', () => {
    const delays: number[] = [];
    let previous = 1000;
    for (let attempt = 0; attempt < 8; attempt += 1) {
      previous = nextLookupDelayMs({ startingIntervalMs: 1000, previousDelayMs: previous, lookingUpForMs: EAGER_LOOKUP_MS + attempt });
      delays.push(previous);
    }
    expect(delays).toEqual([2000, 4000, 8000, 16000, MAX_LOOKUP_INTERVAL_MS, MAX_LOOKUP_INTERVAL_MS, MAX_LOOKUP_INTERVAL_MS, MAX_LOOKUP_INTERVAL_MS]);
  });
});
