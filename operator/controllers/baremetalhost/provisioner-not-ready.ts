import { TransientProvisionerError } from '../../provisioner/result.ts';

/** BMO's provisioner retry delay while the back end is not ready (e.g. Ironic still starting). */
export const PROVISIONER_NOT_READY_RETRY_MS = 30_000;

/** The provisioner could not be set up yet; hosts wait (BMO's ErrNotReady) without recording errors. */
export class ProvisionerNotReadyError extends TransientProvisionerError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, retryAfterMs: PROVISIONER_NOT_READY_RETRY_MS });
  }
}
