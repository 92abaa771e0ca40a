import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { Heartbeater } from './heartbeat.ts';

/** Resolves once `done()` holds; fails after `timeoutMs` (generous: a loaded machine delays timers). */
async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}

describe('Heartbeater', () => {
  it('heartbeats at once, then per interval, and early when forced but never before the floor', async () => {
    const sent: number[] = [];
    const floorMs = 300;
    const heartbeater = new Heartbeater({
      send: async () => {
        sent.push(Date.now());
        return true;
      },
      nextIntervalMs: () => 60_000,
      minIntervalMs: floorMs,
      errorRetryMs: 1000,
    });
    heartbeater.start();
    await until(() => sent.length === 1);
    heartbeater.force();
    await until(() => sent.length === 2);
    // Forced, yet not before the floor; timers never fire early.
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(floorMs - 1);
    // The force was satisfied: the next heartbeat waits for the 60 s interval, not another floor.
    await sleep(3 * floorMs);
    expect(sent).toHaveLength(2);
    heartbeater.stop();
    expect(heartbeater.running).toBe(false);
  });

  it('retries a rejected heartbeat after 1-2x the error retry time', async () => {
    const calls: number[] = [];
    const heartbeater = new Heartbeater({
      send: async () => calls.push(Date.now()) > 1,
      nextIntervalMs: () => 60_000,
      minIntervalMs: 0,
      errorRetryMs: 100,
      random: () => 0,
    });
    heartbeater.start();
    await until(() => calls.length === 2);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(99);
    // Accepted the second time: nothing more until the interval.
    await sleep(300);
    heartbeater.stop();
    expect(calls).toHaveLength(2);
  });
});
