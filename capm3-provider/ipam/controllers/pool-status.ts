import { deepEqual, formatTime, isConflict, patchStatus } from '../../../operator/runtime/index.ts';
import type { IPPool } from '../api/index.ts';
import type { HeldAddress } from './claim-kinds.ts';
import type { PoolScope } from './context.ts';

/** status.indexes as upstream keeps it: the address of each claim, by claim name. */
export function poolIndexes(held: readonly HeldAddress[]): Record<string, string> {
  const live = held.filter((address) => !address.deleting).sort((a, b) => a.claimName.localeCompare(b.claimName));
  return Object.fromEntries(live.map((address) => [address.claimName, address.address]));
}

/**
 * Writes status.indexes when they changed, conditional on the pool's resourceVersion so a
 * process with an older view never overwrites a newer one; false means try again.
 */
export async function writePoolIndexes(scope: PoolScope, pool: IPPool, held: readonly HeldAddress[]): Promise<boolean> {
  const before = pool.status?.indexes ?? {};
  const indexes = poolIndexes(held);
  if (deepEqual(before, indexes)) return true;
  // A merge patch keeps keys it does not mention: released claims are nulled out.
  const patch: Record<string, string | null> = { ...indexes };
  for (const claimName of Object.keys(before)) if (!(claimName in indexes)) patch[claimName] = null;
  try {
    await patchStatus(scope.deps.pools.client, pool, { indexes: patch, lastUpdated: formatTime(new Date(scope.deps.clock.now())) },
      { optimisticLock: true, signal: scope.signal });
    return true;
  } catch (error) {
    if (isConflict(error)) return false;
    throw error;
  }
}
