import type { Metal3Remediation } from '../api/index.ts';
import { DEFAULT_REMEDIATION_TIMEOUT_SECONDS } from '../api/index.ts';

/** Milliseconds left of the current power cycle's timeout; undefined before one started or with an unreadable time. */
export function timeoutLeftMs(remediation: Metal3Remediation, now: number): number | undefined {
  const started = remediation.status?.lastRemediated;
  if (!started) return undefined;
  const startedMs = Date.parse(started);
  if (Number.isNaN(startedMs)) return undefined;
  // 0 is Go's "unset" (a v1beta1 object converted without a timeout), as CAPM3's webhook reads it.
  const timeoutMs = (remediation.spec.strategy?.timeoutSeconds || DEFAULT_REMEDIATION_TIMEOUT_SECONDS) * 1_000;
  return Math.max(0, startedMs + timeoutMs - now);
}

export function retryLimitReached(remediation: Metal3Remediation): boolean {
  return (remediation.status?.retryCount ?? 0) >= (remediation.spec.strategy?.retryLimit ?? 1);
}
