// Bounded retries with jittered exponential backoff for failures that clear by themselves:
// NodeLocked 409s (power sync and running tasks hold locks), 503s, and connection failures
// where repeating the request cannot apply it twice.
import { IronicConflictError, IronicConnectionError, IronicServiceUnavailableError } from './errors.ts';

export interface RetryOptions {
  /** Total attempts including the first. @default 4 */
  maxAttempts?: number;
  /** Delay before the first retry, before jitter. @default 300 */
  baseDelayMs?: number;
  /** Cap on any single delay. @default 3000 */
  maxDelayMs?: number;
  /** Random source in [0, 1); injectable for tests. @default Math.random */
  random?: () => number;
}

export type RetryPolicy = Required<RetryOptions>;

export function compileRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  const policy = {
    maxAttempts: options.maxAttempts ?? 4,
    baseDelayMs: options.baseDelayMs ?? 300,
    maxDelayMs: options.maxDelayMs ?? 3000,
    random: options.random ?? Math.random,
  };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new RangeError(`retry.maxAttempts must be a positive integer, got ${policy.maxAttempts}`);
  }
  if (policy.baseDelayMs < 0 || policy.maxDelayMs < 0) {
    throw new RangeError('retry delays must not be negative');
  }
  return policy;
}

/** Delay before retry number `retry` (1-based): half fixed, half random, so clients spread out. */
export function backoffDelayMs(retry: number, policy: RetryPolicy): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return exponential / 2 + policy.random() * (exponential / 2);
}

// Codes where the request never reached Ironic, so even a POST is safe to repeat.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'ENOTFOUND']);
// Codes where the request may have been applied; only idempotent methods are repeated.
const MAYBE_SENT_CODES = new Set(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE']);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

export function isRetryable(error: unknown, method: string): boolean {
  if (error instanceof IronicConflictError) return error.locked;
  if (error instanceof IronicServiceUnavailableError) return true;
  if (error instanceof IronicConnectionError && error.code) {
    if (NOT_SENT_CODES.has(error.code)) return true;
    return MAYBE_SENT_CODES.has(error.code) && IDEMPOTENT_METHODS.has(method.toUpperCase());
  }
  return false;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
