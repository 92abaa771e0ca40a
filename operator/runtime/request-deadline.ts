// One request's abort signal: its caller's, or its own deadline, whichever comes first.
//
// `AbortSignal.any([caller, AbortSignal.timeout(ms)])` does the same, but Node keeps a timeout
// signal that has a listener, and its timer, until the timeout fires, long after the request
// ended: at 1000 fixture hosts, ~4,500 live signals and ~6,500 timers (test/bench/README.md,
// "Strings and parses held once"). This one lets go as soon as the request is done.

import type { Clock } from './clock.ts';

export interface RequestDeadline {
  signal: AbortSignal;
  /** Clears the timer and stops following the caller's signal. Call once the request ends. */
  done(): void;
}

export function requestDeadline(options: { timeoutMs: number; signal?: AbortSignal; clock?: Clock }): RequestDeadline {
  const controller = new AbortController();
  const caller = options.signal;
  const onCallerAbort = (): void => controller.abort(caller?.reason);
  const onTimeout = (): void => {
    controller.abort(new DOMException(`The request timed out after ${options.timeoutMs} ms`, 'TimeoutError'));
  };
  const cancelTimer = options.clock ? clockTimer(options.clock, onTimeout, options.timeoutMs) : processTimer(onTimeout, options.timeoutMs);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      cancelTimer();
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}

function clockTimer(clock: Clock, callback: () => void, delayMs: number): () => void {
  const timer = clock.setTimer(callback, delayMs);
  return () => timer.cancel();
}

/** Does not keep the process alive on its own. */
function processTimer(callback: () => void, delayMs: number): () => void {
  const timer = setTimeout(callback, delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}
