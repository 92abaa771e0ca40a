// How Ironic failures become provisioner outcomes: a requeue without a recorded error for
// trouble that clears by itself, a recorded failure when Ironic refuses the request itself.
import {
  IronicApiError,
  IronicBadRequestError,
  IronicConflictError,
  IronicError,
  IronicNotFoundError,
} from '../../../ironic-client/index.ts';
import { failed, TransientProvisionerError } from '../result.ts';
import type { Busy } from '../result.ts';
import type { Delays } from './delays.ts';

export type NotDone = Busy | { kind: 'failed'; message: string };

export function isNotFound(error: unknown): error is IronicNotFoundError {
  return error instanceof IronicNotFoundError;
}

/** A 409 that is not a lock: the node is mid-transition or the change does not fit its state yet. */
export function isBusyConflict(error: unknown): error is IronicConflictError {
  return error instanceof IronicConflictError && !error.locked;
}

export function isBadRequest(error: unknown): error is IronicBadRequestError {
  return error instanceof IronicBadRequestError;
}

/** Ironic's own words when it answered, else the error's message. */
export function ironicMessage(error: unknown): string {
  if (error instanceof IronicApiError) return error.faultstring;
  return error instanceof Error ? error.message : String(error);
}

/** Wraps anything unexpected as transient: the caller requeues with backoff and records nothing. */
export function transient(what: string, error: unknown, retryAfterMs?: number): TransientProvisionerError {
  if (error instanceof TransientProvisionerError) return error;
  return new TransientProvisionerError(`${what}: ${ironicMessage(error)}`, {
    cause: error,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

/**
 * The outcome of a refused write (PATCH, provision or power change, create): a 409 that is not
 * a lock waits a short while (BMO's retryAfterDelay), a 400 is Ironic rejecting the request and
 * is recorded, and everything else (locks the client gave up on, 503, connection) is transient.
 */
export function writeRefused(what: string, error: unknown, delays: Delays): NotDone {
  if (isBusyConflict(error)) return delays.short(`${what}: node busy (${error.faultstring})`);
  if (isBadRequest(error)) return failed(`${what}: ${error.faultstring}`);
  if (error instanceof IronicError || error instanceof TransientProvisionerError) {
    throw transient(what, error, delays.shortMs());
  }
  throw error;
}
