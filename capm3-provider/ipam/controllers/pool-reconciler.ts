import type { KubeObject, ReconcileContext, Reconciler, Request, Result } from '../../../operator/runtime/index.ts';
import { addFinalizer, hasFinalizer, isConflict, isNotFound, removeFinalizer } from '../../../operator/runtime/index.ts';
import { IPPOOL_FINALIZER, ipPoolSchema } from '../api/index.ts';
import type { IPPool } from '../api/index.ts';
import type { WatchFilter } from '../../watch-filter.ts';
import type { ClaimKind, HeldAddress } from './claim-kinds.ts';
import { CLAIM_KINDS } from './claim-kinds.ts';
import { recordClaimFailure } from './claim-status.ts';
import type { IpamDeps, PoolScope } from './context.ts';
import { claimAccess } from './context.ts';
import { writePoolIndexes } from './pool-status.ts';
import { releaseClaim, releaseStrayAddresses } from './release-claim.ts';
import { serveClaim } from './serve-claim.ts';

/** Cluster API's pause annotation: a paused pool is left alone. */
export const PAUSED_ANNOTATION = 'cluster.x-k8s.io/paused';

/**
 * Upstream's IPPool reconciler: one pass serves every claim (Metal3 IPClaims and Cluster API
 * IPAddressClaims) naming the pool, releases deleted ones, and writes status.indexes. The work
 * queue runs one pass per pool at a time in this process; other processes are kept honest by
 * the API server (see serveClaim).
 */
export class IpPoolReconciler implements Reconciler {
  readonly #deps: IpamDeps;
  readonly #filter: WatchFilter | undefined;

  constructor(deps: IpamDeps, options: { watchFilter?: WatchFilter } = {}) {
    this.#deps = deps;
    this.#filter = options.watchFilter;
  }

  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    const scope: PoolScope = { deps: this.#deps, namespace: request.namespace ?? '', poolName: request.name, log: context.log, signal: context.signal };
    const cached = this.#deps.pools.cache.get(request);
    if (!cached) return this.#withoutPool(scope, `IPPool ${scope.poolName} not found in namespace ${scope.namespace}`);
    if (this.#filter && !this.#filter.accepts(cached)) return {};
    if (cached.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined) {
      context.log.debug('IPPool is paused');
      return {};
    }
    const parsed = ipPoolSchema.safeParse(cached);
    if (!parsed.success) {
      // Only a pool stored before its CRD's checks could be this; say so and serve none of it.
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      context.log.warn('invalid IPPool', { problems });
      this.#deps.events.event(cached, { type: 'Warning', reason: 'InvalidPool', action: 'ServePool', note: problems });
      return this.#withoutPool(scope, `IPPool ${scope.poolName} is invalid: ${problems}`);
    }
    let pool = parsed.data;
    try {
      if (!pool.metadata.deletionTimestamp) pool = ipPoolSchema.parse(await addFinalizer(this.#deps.pools.client, pool, IPPOOL_FINALIZER, { strategy: 'merge', signal: context.signal }));
      return await this.#servePool(scope, pool);
    } catch (error) {
      if (!isConflict(error) && !isNotFound(error)) throw error;
      context.log.debug('IPPool or claim changed meanwhile; requeueing', { error: (error as Error).message });
      return { requeue: true };
    }
  }

  async #servePool(scope: PoolScope, pool: IPPool): Promise<Result> {
    const held = await this.#deps.addresses.heldBy(scope.namespace, scope.poolName, scope.signal);
    scope.log.debug('serving the pool', { allocated: held.length, deleting: Boolean(pool.metadata.deletionTimestamp) });
    const failures = await this.#forEachClaim(scope, async (kind, claim) => {
      if (claim.metadata.deletionTimestamp) {
        if (hasFinalizer(claim, kind.claimFinalizer)) await releaseClaim(scope, { kind, claim, held });
      } else if (!kind.addressNameOf(claim)) {
        await serveClaim(scope, { kind, pool, claim, held });
      }
    });
    await releaseStrayAddresses(scope, held);
    const indexesWritten = await writePoolIndexes(scope, pool, held);
    if (pool.metadata.deletionTimestamp) await this.#finishDeletion(scope, pool, held);
    return outcome(failures, indexesWritten);
  }

  /** A deleted pool keeps its finalizer while any address from it is still allocated. */
  async #finishDeletion(scope: PoolScope, pool: IPPool, held: readonly HeldAddress[]): Promise<void> {
    if (!hasFinalizer(pool, IPPOOL_FINALIZER)) return;
    const allocated = held.filter((address) => !address.deleting);
    if (allocated.length > 0) {
      scope.log.info('IPPool deleted; waiting for its addresses to be released', {
        allocated: allocated.length, claims: allocated.slice(0, 5).map((address) => address.claimName) });
      return;
    }
    await removeFinalizer(this.#deps.pools.client, pool, IPPOOL_FINALIZER, { strategy: 'merge', signal: scope.signal });
    scope.log.info('IPPool deleted; no addresses left allocated, released it');
  }

  /**
   * Claims naming a pool that does not exist (or cannot be read): deleted ones are released
   * (never left hanging), the others say why they get no address.
   */
  async #withoutPool(scope: PoolScope, message: string): Promise<Result> {
    const held = await this.#deps.addresses.heldBy(scope.namespace, scope.poolName, scope.signal);
    const failures = await this.#forEachClaim(scope, async (kind, claim) => {
      if (claim.metadata.deletionTimestamp) {
        if (hasFinalizer(claim, kind.claimFinalizer)) await releaseClaim(scope, { kind, claim, held });
      } else if (!kind.addressNameOf(claim)) {
        await recordClaimFailure(scope, kind, claim, { reason: 'PoolNotReady', message });
      }
    });
    await releaseStrayAddresses(scope, held);
    return outcome(failures, true);
  }

  /** Runs `work` for every claim of the pool, one at a time; a failing claim does not hold up the others. */
  async #forEachClaim(scope: PoolScope, work: (kind: ClaimKind, claim: KubeObject) => Promise<void>): Promise<unknown[]> {
    const failures: unknown[] = [];
    for (const kind of CLAIM_KINDS) {
      const claims = claimAccess(this.#deps, kind).cache.list(scope.namespace)
        .filter((claim) => kind.poolNameOf(claim) === scope.poolName)
        .sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
      for (const claim of claims) {
        if (scope.signal.aborted) return failures;
        try {
          await work(kind, claim);
        } catch (error) {
          if (isConflict(error) || isNotFound(error)) {
            scope.log.debug('claim changed meanwhile; the next pass looks again', { claim: claim.metadata.name, error: (error as Error).message });
          } else {
            scope.log.error('could not serve claim', { claim: claim.metadata.name, kind: kind.label, error });
          }
          failures.push(error);
        }
      }
    }
    return failures;
  }
}

/** Conflicts are only retried; other failures go through the controller's error backoff. */
function outcome(failures: unknown[], indexesWritten: boolean): Result {
  const [first] = failures.filter((error) => !isConflict(error) && !isNotFound(error));
  if (first) throw first;
  return failures.length > 0 || !indexesWritten ? { requeue: true } : {};
}
