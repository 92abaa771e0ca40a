import type { KubeObject } from '../../../operator/runtime/index.ts';
import { removeFinalizer } from '../../../operator/runtime/index.ts';
import type { ClaimKind, HeldAddress } from './claim-kinds.ts';
import { belongsTo } from './claim-kinds.ts';
import type { PoolScope } from './context.ts';
import { claimAccess } from './context.ts';

/**
 * A deleted claim gives its address back: the address object goes, then the claim's
 * finalizer. As upstream, not while other finalizers (its user's) remain on the claim.
 */
export async function releaseClaim(scope: PoolScope, input: { kind: ClaimKind; claim: KubeObject; held: HeldAddress[] }): Promise<void> {
  const { kind, claim, held } = input;
  const others = (claim.metadata.finalizers ?? []).filter((finalizer) => finalizer !== kind.claimFinalizer);
  if (others.length > 0) {
    scope.log.debug('claim deleted but still in use; keeping its address', { claim: claim.metadata.name, finalizers: others });
    return;
  }
  const name = claim.metadata.name ?? '';
  for (const address of held.filter((candidate) => candidate.kind === kind && belongsTo(candidate, claim))) {
    await scope.deps.addresses.release(address, scope.signal);
    held.splice(held.indexOf(address), 1);
    scope.log.info('address released', { claim: name, kind: kind.label, address: address.address, ipAddress: address.name });
  }
  await removeFinalizer(claimAccess(scope.deps, kind).client, claim, kind.claimFinalizer, { strategy: 'merge', signal: scope.signal });
}

/**
 * Address objects deleted by hand whose claim is gone, and ones a claim does not use (its
 * status names another), lose our finalizer so they never hang. One a claim still uses keeps
 * it until the claim goes, as upstream.
 */
export async function releaseStrayAddresses(scope: PoolScope, held: HeldAddress[]): Promise<void> {
  for (const address of [...held]) {
    const cached = claimAccess(scope.deps, address.kind).cache.get({ namespace: scope.namespace, name: address.claimName });
    // A cached claim that is not the address's own (an earlier one of that name) says nothing about it.
    const claim = cached && belongsTo(address, cached) ? cached : undefined;
    const recorded = claim ? address.kind.addressNameOf(claim) : undefined;
    const stray = recorded !== undefined && recorded !== address.name;
    const abandoned = address.deleting && !claim;
    if (!stray && !abandoned) continue;
    await scope.deps.addresses.release(address, scope.signal);
    held.splice(held.indexOf(address), 1);
    scope.log.info('released a stray address object', { ipAddress: address.name, claim: address.claimName, reason: stray ? 'claim uses another' : 'deleted' });
  }
}
