import type { Logger } from './logger.ts';
import { silentLogger } from './logger.ts';

/** The slice of `process` the handler uses; injected in tests. */
export interface SignalProcess {
  on(event: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
  off(event: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
  exit(code: number): void;
}

export interface SignalHandler {
  /** Aborts on the first SIGTERM or SIGINT: start a graceful shutdown. */
  signal: AbortSignal;
  dispose(): void;
}

/**
 * controller-runtime's `SetupSignalHandler`: the first SIGTERM/SIGINT aborts the returned
 * signal so the manager can stop informers, drain queues and release its lease; a second
 * one exits at once with status 1, for when the graceful path hangs.
 */
export function setupSignalHandler(options: { logger?: Logger; process?: SignalProcess } = {}): SignalHandler {
  const proc = options.process ?? process;
  const logger = options.logger ?? silentLogger();
  const controller = new AbortController();
  const onSignal = (name: 'SIGTERM' | 'SIGINT') => () => {
    if (!controller.signal.aborted) {
      logger.info('received signal; shutting down gracefully', { signal: name });
      controller.abort(new Error(`received ${name}`));
      return;
    }
    logger.warn('received second signal; exiting now', { signal: name });
    proc.exit(1);
  };
  const onTerm = onSignal('SIGTERM');
  const onInt = onSignal('SIGINT');
  proc.on('SIGTERM', onTerm);
  proc.on('SIGINT', onInt);
  return {
    signal: controller.signal,
    dispose: () => {
      proc.off('SIGTERM', onTerm);
      proc.off('SIGINT', onInt);
    },
  };
}
