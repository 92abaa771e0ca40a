import { TransientProvisionerError } from '../../provisioner/result.ts';

/** BMO's provisioner retry delay while the back end is not ready (e.g. Ironic still starting). */
export const PROVISIONER_NOT_READY_RETRY_MS = 30_000;

/** The provisioner could not be set up yet; hosts wait (BMO's ErrNotReady) without recording errors. */
export class ProvisionerNotReadyError extends TransientProvisionerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, retryAfterMs: PROVISIONER_NOT_READY_RETRY_MS });
  }
}

/**
 * The back end refuses the operator itself (Ironic rejects its credentials or its certificate is
 * not trusted): nothing a host can fix, yet no retry will succeed until someone acts, so the
 * reconciler says so on each host (a Warning event) instead of waiting silently.
 */
export class ProvisionerAccessDeniedError extends TransientProvisionerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, retryAfterMs: PROVISIONER_NOT_READY_RETRY_MS });
  }
}

/**
 * Ironic does not answer at all (connection refused, reset or timed out): hosts wait without
 * recording an error, as for any outage, but each says so in a Warning event, so a user reading
 * a host that stopped moving learns why.
 */
export class ProvisionerUnreachableError extends TransientProvisionerError {}
