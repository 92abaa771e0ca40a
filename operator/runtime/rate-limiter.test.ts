import { describe, it, expect } from '@jest/globals';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
} from './rate-limiter.ts';
import { FakeClock } from './testing/fake-clock.ts';

describe('ItemExponentialFailureRateLimiter', () => {
  it('doubles from the base delay per failure, per item, up to the cap', () => {
    const limiter = new ItemExponentialFailureRateLimiter<string>({ baseDelayMs: 5, maxDelayMs: 1_000_000 });
    const delays = Array.from({ length: 5 }, () => limiter.when('a'));
    expect(delays).toEqual([5, 10, 20, 40, 80]);
    expect(limiter.when('b')).toBe(5);
    expect(limiter.numRequeues('a')).toBe(5);
    for (let i = 0; i < 40; i++) limiter.when('a');
    expect(limiter.when('a')).toBe(1_000_000);
  });

  it('starts over after forget', () => {
    const limiter = new ItemExponentialFailureRateLimiter<string>({ baseDelayMs: 5, maxDelayMs: 1000 });
    limiter.when('a');
    limiter.when('a');
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
    expect(limiter.when('a')).toBe(5);
  });
});

describe('BucketRateLimiter', () => {
  it('lets a burst through, then spaces items at 1/qps', () => {
    const clock = new FakeClock();
    const limiter = new BucketRateLimiter<string>({ qps: 10, burst: 3, clock });
    expect([limiter.when('a'), limiter.when('b'), limiter.when('c')]).toEqual([0, 0, 0]);
    expect(limiter.when('d')).toBeCloseTo(100);
    expect(limiter.when('e')).toBeCloseTo(200);
  });

  it('refills over time, but never beyond the burst', async () => {
    const clock = new FakeClock();
    const limiter = new BucketRateLimiter<string>({ qps: 10, burst: 2, clock });
    limiter.when('a');
    limiter.when('b');
    await clock.advance(60_000);
    expect([limiter.when('c'), limiter.when('d')]).toEqual([0, 0]);
    expect(limiter.when('e')).toBeCloseTo(100);
  });
});

describe('MaxOfRateLimiter / default controller limiter', () => {
  it('takes the longer of the per-item backoff and the overall bucket', () => {
    const clock = new FakeClock();
    const limiter = new MaxOfRateLimiter<string>(
      new ItemExponentialFailureRateLimiter({ baseDelayMs: 5, maxDelayMs: 1000 }),
      new BucketRateLimiter({ qps: 1, burst: 1, clock }),
    );
    expect(limiter.when('a')).toBe(5);
    expect(limiter.when('b')).toBeCloseTo(1000);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
  });

  it('defaults to client-go values: 5 ms base and 100 tokens of burst', () => {
    const limiter = defaultControllerRateLimiter<string>({ clock: new FakeClock() });
    expect(limiter.when('x')).toBe(5);
    expect(limiter.when('x')).toBe(10);
    const many = Array.from({ length: 98 }, (_, i) => limiter.when(`k${i}`));
    expect(Math.max(...many)).toBe(5);
    expect(limiter.when('one-too-many')).toBeCloseTo(100);
  });
});
