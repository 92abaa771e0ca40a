/**
 * A failure that retrying will not fix (bad spec, unsupported request). The controller
 * logs and counts it, and does not requeue with backoff; the object is reconciled again
 * only when it changes. controller-runtime's `reconcile.TerminalError`.
 */
export class TerminalError extends Error {
  override name = 'TerminalError';
}

/**
 * A failure that is expected to go away (API conflict, external system busy). Any error
 * that is not a TerminalError is treated as transient; this class only makes it explicit.
 */
export class TransientError extends Error {
  override name = 'TransientError';
}

export function isTerminalError(error: unknown): boolean {
  if (error instanceof TerminalError) return true;
  // Errors wrapped by callers (`new Error('x', { cause })`) stay terminal.
  return error instanceof Error && error.cause !== undefined && isTerminalError(error.cause);
}

/** Raised by Manager.start when this replica lost its lease; the process should exit. */
export class LeaderElectionLostError extends Error {
  override name = 'LeaderElectionLostError';
}
