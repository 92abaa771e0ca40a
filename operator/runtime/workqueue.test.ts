import { describe, it, expect } from '@jest/globals';
import { ItemExponentialFailureRateLimiter } from './rate-limiter.ts';
import { FakeClock, flushPromises } from './testing/fake-clock.ts';
import { WorkQueue } from './workqueue.ts';
import type { WorkQueueMetrics } from './workqueue.ts';

function newQueue(clock = new FakeClock(), metrics?: WorkQueueMetrics) {
  const rateLimiter = new ItemExponentialFailureRateLimiter<string>({ baseDelayMs: 5, maxDelayMs: 1_000_000 });
  return new WorkQueue<string>({ name: 'test', clock, rateLimiter, metrics });
}

describe('WorkQueue', () => {
  it('queues a key at most once and hands keys out in FIFO order', async () => {
    const queue = newQueue();
    queue.add('a');
    queue.add('b');
    queue.add('a');
    expect(queue.len()).toBe(2);
    expect(await queue.get()).toBe('a');
    expect(await queue.get()).toBe('b');
    expect(queue.len()).toBe(0);
  });

  it('hands urgent keys out first, FIFO within each level, and lifts a waiting key added urgently', async () => {
    const queue = new WorkQueue<string>({ name: 'test', clock: new FakeClock(), maxUrgentInARow: 8 });
    queue.add('new-1');
    queue.add('new-2');
    queue.add('new-3');
    queue.add('moved-on', { urgent: true });
    queue.add('new-3', { urgent: true });
    // Already urgent: adding it again, urgent or not, changes nothing.
    queue.add('moved-on');
    queue.add('moved-on', { urgent: true });
    expect(queue.len()).toBe(4);
    const order: string[] = [];
    for (let n = 0; n < 4; n++) order.push((await queue.get())!);
    expect(order).toEqual(['moved-on', 'new-3', 'new-1', 'new-2']);
    expect(queue.len()).toBe(0);
  });

  it('lets a waiting key that is not urgent go next after maxUrgentInARow urgent ones, so a stream of urgent adds starves none', async () => {
    const queue = new WorkQueue<string>({ name: 'test', clock: new FakeClock(), maxUrgentInARow: 2 });
    queue.add('new-1');
    queue.add('new-2');
    for (let n = 1; n <= 5; n++) queue.add(`moved-${n}`, { urgent: true });
    const order: string[] = [];
    for (let n = 0; n < 7; n++) order.push((await queue.get())!);
    expect(order).toEqual(['moved-1', 'moved-2', 'new-1', 'moved-3', 'moved-4', 'new-2', 'moved-5']);
  });

  it('by default lets urgent keys and waiting keys that are not take turns', async () => {
    const queue = newQueue();
    queue.add('new-1');
    queue.add('new-2');
    for (let n = 1; n <= 3; n++) queue.add(`moved-${n}`, { urgent: true });
    const order: string[] = [];
    for (let n = 0; n < 5; n++) order.push((await queue.get())!);
    expect(order).toEqual(['moved-1', 'new-1', 'moved-2', 'new-2', 'moved-3']);
  });

  it('counts only urgent keys handed out while another waited towards its turn', async () => {
    const queue = new WorkQueue<string>({ name: 'test', clock: new FakeClock(), maxUrgentInARow: 2 });
    for (let n = 1; n <= 3; n++) queue.add(`moved-${n}`, { urgent: true });
    for (let n = 0; n < 3; n++) await queue.get();
    queue.add('new-1');
    queue.add('moved-4', { urgent: true });
    expect([await queue.get(), await queue.get()]).toEqual(['moved-4', 'new-1']);
    expect(() => new WorkQueue<string>({ name: 'test', maxUrgentInARow: 0 })).toThrow(RangeError);
  });

  it('queues a key added urgently while it was processed at the urgent level when it is done', async () => {
    const queue = newQueue();
    queue.add('a');
    await queue.get();
    queue.add('b');
    queue.add('a', { urgent: true });
    queue.done('a');
    expect(await queue.get()).toBe('a');
    expect(await queue.get()).toBe('b');
  });

  it('never hands the same key to two workers at once', async () => {
    const queue = newQueue();
    queue.add('a');
    const first = await queue.get();
    queue.add('a');
    let second: string | undefined;
    void queue.get().then((item) => (second = item));
    await flushPromises();
    expect(first).toBe('a');
    expect(second).toBeUndefined();
    expect(queue.len()).toBe(0);
    queue.done('a');
    await flushPromises();
    expect(second).toBe('a');
  });

  it('re-queues a key that changed while it was processed, once, however many adds arrived', async () => {
    const queue = newQueue();
    queue.add('a');
    await queue.get();
    queue.add('a');
    queue.add('a');
    queue.add('a');
    expect(queue.len()).toBe(0);
    queue.done('a');
    expect(queue.len()).toBe(1);
    expect(await queue.get()).toBe('a');
    queue.done('a');
    expect(queue.len()).toBe(0);
  });

  it('wakes a waiting worker when a key arrives', async () => {
    const queue = newQueue();
    const next = queue.get();
    queue.add('x');
    await expect(next).resolves.toBe('x');
    expect(queue.isProcessing('x')).toBe(true);
  });

  it('grows the per-key backoff on each rate-limited requeue and resets it on forget', async () => {
    const clock = new FakeClock();
    const queue = newQueue(clock);
    const readyAfter = async (ms: number) => {
      await clock.advance(ms - 1);
      const early = queue.len();
      await clock.advance(1);
      return { early, ready: queue.len() };
    };

    queue.addRateLimited('a');
    expect(await readyAfter(5)).toEqual({ early: 0, ready: 1 });
    await queue.get();
    queue.done('a');
    queue.addRateLimited('a');
    expect(await readyAfter(10)).toEqual({ early: 0, ready: 1 });
    await queue.get();
    queue.done('a');
    queue.addRateLimited('a');
    expect(await readyAfter(20)).toEqual({ early: 0, ready: 1 });
    expect(queue.numRequeues('a')).toBe(3);

    await queue.get();
    queue.done('a');
    queue.forget('a');
    expect(queue.numRequeues('a')).toBe(0);
    queue.addRateLimited('a');
    expect(await readyAfter(5)).toEqual({ early: 0, ready: 1 });
  });

  it('keeps one timer per key for delayed adds, and the earliest wins', async () => {
    const clock = new FakeClock();
    const queue = newQueue(clock);
    queue.addAfter('a', 1000);
    queue.addAfter('a', 5000);
    queue.addAfter('a', 300);
    expect(queue.delayedCount()).toBe(1);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(299);
    expect(queue.len()).toBe(0);
    await clock.advance(1);
    expect(queue.len()).toBe(1);
    await clock.advance(10_000);
    expect(queue.len()).toBe(1);
  });

  it('drops a key\'s delayed add once the key is handed out: that pass schedules its own', async () => {
    const clock = new FakeClock();
    const queue = newQueue(clock);
    queue.addAfter('a', 10_000);
    // Something else (a watch event) wakes the key first.
    queue.add('a');
    expect(await queue.get()).toBe('a');
    expect(queue.delayedCount()).toBe(0);
    expect(clock.pendingTimers).toBe(0);
    queue.addAfter('a', 3_000);
    queue.done('a');
    await clock.advance(10_000);
    expect(queue.len()).toBe(1);
    expect(await queue.get()).toBe('a');
    queue.done('a');
    await clock.advance(10_000);
    expect(queue.len()).toBe(0);
  });

  it('adds immediately when the delay is zero', () => {
    const queue = newQueue();
    queue.addAfter('a', 0);
    expect(queue.len()).toBe(1);
  });

  it('on shutdown releases waiting workers, drops delayed keys and ignores new adds', async () => {
    const clock = new FakeClock();
    const queue = newQueue(clock);
    const waiting = queue.get();
    queue.addAfter('later', 1000);
    queue.shutDown();
    await expect(waiting).resolves.toBeUndefined();
    expect(clock.pendingTimers).toBe(0);
    queue.add('new');
    expect(queue.len()).toBe(0);
    await expect(queue.get()).resolves.toBeUndefined();
  });

  it('shutDownWithDrain waits for in-flight keys and does not re-queue them', async () => {
    const queue = newQueue();
    queue.add('a');
    queue.add('b');
    await queue.get();
    await queue.get();
    queue.add('a');
    let drained = false;
    const drain = queue.shutDownWithDrain().then(() => (drained = true));
    queue.done('a');
    await flushPromises();
    expect(drained).toBe(false);
    queue.done('b');
    await drain;
    expect(drained).toBe(true);
    expect(queue.len()).toBe(0);
  });

  it('reports adds, depth, wait time, work time and retries to its metrics hooks', async () => {
    const clock = new FakeClock();
    const calls: string[] = [];
    const metrics: WorkQueueMetrics = {
      added: () => calls.push('added'),
      depth: (n) => calls.push(`depth ${n}`),
      started: (ms) => calls.push(`started ${ms}`),
      finished: (ms) => calls.push(`finished ${ms}`),
      retried: () => calls.push('retried'),
    };
    const queue = newQueue(clock, metrics);
    queue.add('a');
    await clock.advance(40);
    await queue.get();
    await clock.advance(25);
    queue.done('a');
    queue.addRateLimited('a');
    expect(calls).toEqual(['added', 'depth 1', 'depth 0', 'started 40', 'finished 25', 'retried']);
  });
});
