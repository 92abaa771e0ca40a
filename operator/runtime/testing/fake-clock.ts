import type { Clock, Timer } from '../clock.ts';

interface PendingTimer {
  id: number;
  dueAt: number;
  callback: () => void;
}

/** Lets pending promise callbacks (and the work they trigger) run before time moves on. */
export async function flushPromises(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * A manual clock for tests: time only moves when the test calls `advance`, and due
 * timers then fire in order, with promise callbacks flushed between them so code that
 * awaits and then schedules again behaves as it would in real time.
 */
export class FakeClock implements Clock {
  #now: number;
  #nextId = 1;
  #timers: PendingTimer[] = [];

  constructor(startMs = Date.parse('2026-01-01T00:00:00Z')) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimer(callback: () => void, delayMs: number): Timer {
    const timer: PendingTimer = { id: this.#nextId++, dueAt: this.#now + Math.max(0, delayMs), callback };
    this.#timers.push(timer);
    return { cancel: () => this.#remove(timer.id) };
  }

  /** Number of timers not yet fired or cancelled. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    await flushPromises();
    for (;;) {
      const next = this.#earliestDue(target);
      if (!next) break;
      this.#remove(next.id);
      this.#now = next.dueAt;
      next.callback();
      await flushPromises();
    }
    this.#now = target;
    await flushPromises();
  }

  /** Time passes with no timer firing, as for a process stopped (SIGSTOP) and resumed. */
  freezeFor(ms: number): void {
    this.#now += ms;
  }

  #earliestDue(limit: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const timer of this.#timers) {
      if (timer.dueAt > limit) continue;
      if (!best || timer.dueAt < best.dueAt || (timer.dueAt === best.dueAt && timer.id < best.id)) best = timer;
    }
    return best;
  }

  #remove(id: number): void {
    this.#timers = this.#timers.filter((t) => t.id !== id);
  }
}
