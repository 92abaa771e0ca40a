import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { Heartbeater } from './heartbeat.ts';

describe('Heartbeater', () => {
  it('heartbeats at once, then per interval, and early when forced', async () => {
    const sent: number[] = [];
    const heartbeater = new Heartbeater({
      send: async () => {
        sent.push(Date.now());
        return true;
      },
      nextIntervalMs: () => 60_000,
      minIntervalMs: 150,
      errorRetryMs: 1000,
    });
    heartbeater.start();
    await sleep(50);
    expect(sent).toHaveLength(1);
    heartbeater.force();
    await sleep(50);
    expect(sent).toHaveLength(1); // not before the floor
    await sleep(250);
    expect(sent).toHaveLength(2);
    await sleep(300);
    expect(sent).toHaveLength(2); // the force was satisfied; the next one waits for the interval
    heartbeater.stop();
    expect(heartbeater.running).toBe(false);
  });

  it('retries a rejected heartbeat after 1-2x the error retry time', async () => {
    let calls = 0;
    const heartbeater = new Heartbeater({
      send: async () => ++calls > 1,
      nextIntervalMs: () => 60_000,
      minIntervalMs: 0,
      errorRetryMs: 100,
      random: () => 0,
    });
    heartbeater.start();
    await sleep(350);
    heartbeater.stop();
    expect(calls).toBe(2);
  });
});
