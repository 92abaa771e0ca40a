// One request's abort signal: its caller's, or its own deadline, whichever comes first.
//
// `AbortSignal.any([caller, AbortSignal.timeout(ms)])` does the same, but Node keeps a timeout
// signal that has a listener, and its timer, until the timeout fires, long after the request
// ended: at 1000 fixture hosts, ~4,500 live signals and ~6,500 timers (test/bench/README.md,
// "Strings and parses held once"). This one lets go as soon as the request is done.

export interface RequestDeadline {
  signal: AbortSignal;
  /** Clears the timer and stops following the caller's signal. Call once the request ends. */
  done(): void;
}

export function requestDeadline(options: { timeoutMs: number; signal?: AbortSignal }): RequestDeadline {
  const controller = new AbortController();
  const caller = options.signal;
  const onCallerAbort = (): void => controller.abort(caller?.reason);
  const timer = setTimeout(() => {
    controller.abort(new DOMException(`The request timed out after ${options.timeoutMs} ms`, 'TimeoutError'));
  }, options.timeoutMs);
  timer.unref();
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}
