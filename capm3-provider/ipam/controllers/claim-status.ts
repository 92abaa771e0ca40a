import type { KubeObject } from '../../../operator/runtime/index.ts';
import { isConflict, isNotFound, patchStatus } from '../../../operator/runtime/index.ts';
import type { AllocationFailure } from '../allocation/index.ts';
import type { ClaimKind } from './claim-kinds.ts';
import type { PoolScope } from './context.ts';
import { claimAccess } from './context.ts';

export interface ClaimFailure {
  /** PoolNotReady: Cluster API's reason for a pool that is missing, being deleted or unreadable. */
  reason: AllocationFailure | 'PoolNotReady';
  message: string;
}

/**
 * Writes the claim's status, conditional on the resourceVersion read; answers the claim as the
 * API server now has it when someone else wrote first (undefined: the claim is gone).
 */
export async function writeClaimStatus(
  scope: PoolScope, kind: ClaimKind, claim: KubeObject, status: Record<string, unknown>,
): Promise<{ written: true } | { written: false; current: KubeObject | undefined }> {
  const { client } = claimAccess(scope.deps, kind);
  try {
    await patchStatus(client, claim, status, { optimisticLock: true, signal: scope.signal });
    return { written: true };
  } catch (error) {
    if (!isConflict(error) && !isNotFound(error)) throw error;
    try {
      return { written: false, current: await client.get({ namespace: scope.namespace, name: claim.metadata.name ?? '' }, { signal: scope.signal }) };
    } catch (readError) {
      if (isNotFound(readError)) return { written: false, current: undefined };
      throw readError;
    }
  }
}

/**
 * Tells the user why the claim has no address: its status (errorMessage, or the Ready
 * condition of a Cluster API claim), a Warning event and a log line, once per new message.
 */
export async function recordClaimFailure(scope: PoolScope, kind: ClaimKind, claim: KubeObject, failure: ClaimFailure): Promise<void> {
  if (kind.failureOf(claim) === failure.message) return;
  const outcome = await writeClaimStatus(scope, kind, claim, kind.failedStatus(claim, failure, new Date(scope.deps.clock.now())));
  // Someone else changed the claim meanwhile; the next pass looks again with what they wrote.
  if (!outcome.written) return;
  scope.log.warn('cannot allocate an address', { claim: claim.metadata.name, kind: kind.label, reason: failure.reason, error: failure.message });
  scope.deps.events.event(claim, { type: 'Warning', reason: failure.reason, action: 'AllocateAddress', note: failure.message });
}
