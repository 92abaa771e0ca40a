import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitForOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Described in the failure message. */
  what: string;
}

/** Thrown from a probe to stop waiting at once: the awaited state can no longer come. */
export class StopWaiting extends Error {
  override readonly name = 'StopWaiting';
}

/** Polls `probe` until it returns a value other than undefined; fails with the last seen state. */
export async function waitFor<T>(probe: () => Promise<T | undefined>, options: WaitForOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      if (error instanceof StopWaiting) throw error;
      lastError = error;
    }
    await sleep(options.intervalMs ?? 500);
  }
  const detail = lastError instanceof Error ? `: ${lastError.message}` : '';
  throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}${detail}`);
}
