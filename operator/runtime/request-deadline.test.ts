import { getEventListeners } from 'node:events';
import { describe, expect, it, jest } from '@jest/globals';
import { requestDeadline } from './request-deadline.ts';
import { FakeClock } from './testing/fake-clock.ts';

describe('requestDeadline', () => {
  it('aborts with a TimeoutError when the deadline passes', () => {
    jest.useFakeTimers();
    try {
      const deadline = requestDeadline({ timeoutMs: 1000 });
      jest.advanceTimersByTime(999);
      expect(deadline.signal.aborted).toBe(false);
      jest.advanceTimersByTime(1);
      expect(deadline.signal.aborted).toBe(true);
      expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
    } finally {
      jest.useRealTimers();
    }
  });

  it("follows the caller's signal, already aborted or aborted later, with its reason", () => {
    const caller = new AbortController();
    const deadline = requestDeadline({ timeoutMs: 60_000, signal: caller.signal });
    caller.abort(new Error('stopping'));
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as Error).message).toBe('stopping');
    deadline.done();

    const early = requestDeadline({ timeoutMs: 60_000, signal: caller.signal });
    expect((early.signal.reason as Error).message).toBe('stopping');
    early.done();
  });

  it("once done, holds no timer and no listener on the caller's signal", () => {
    jest.useFakeTimers();
    try {
      const caller = new AbortController();
      const deadline = requestDeadline({ timeoutMs: 1000, signal: caller.signal });
      expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
      expect(jest.getTimerCount()).toBe(1);
      deadline.done();
      expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
      expect(jest.getTimerCount()).toBe(0);
      jest.advanceTimersByTime(2000);
      expect(deadline.signal.aborted).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('times out on the clock it is given, and cancels that timer when done', async () => {
    const clock = new FakeClock();
    const deadline = requestDeadline({ timeoutMs: 1000, clock });
    await clock.advance(999);
    expect(deadline.signal.aborted).toBe(false);
    await clock.advance(1);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');

    const finished = requestDeadline({ timeoutMs: 1000, clock });
    expect(clock.pendingTimers).toBe(1);
    finished.done();
    expect(clock.pendingTimers).toBe(0);
  });
});
