import type { KubeObject } from '../../../operator/runtime/index.ts';
import { addFinalizer, isNotFound } from '../../../operator/runtime/index.ts';
import type { IPPool } from '../api/index.ts';
import { AllocationError, allocate, canonicalIp, ipAddressName } from '../allocation/index.ts';
import type { ClaimKind, HeldAddress } from './claim-kinds.ts';
import { CLAIM_KINDS, belongsTo } from './claim-kinds.ts';
import { recordClaimFailure, writeClaimStatus } from './claim-status.ts';
import type { PoolScope } from './context.ts';
import { claimAccess } from './context.ts';

/** Addresses tried per claim and pass before giving up (each failure means another process just took one). */
const MAX_ATTEMPTS = 32;
/** Status writes retried per pass when another writer keeps getting there first. */
const MAX_STATUS_WRITES = 5;

/**
 * Gives one claim an address. `held` is the pool's live list of address objects and is kept
 * current. Safe against other processes serving the same pool: an address is taken only by
 * creating its object (the API server refuses a second object of that name), and a claim
 * gets the one address its status names, written conditionally; an address created in vain
 * is deleted again.
 */
export async function serveClaim(scope: PoolScope, input: { kind: ClaimKind; pool: IPPool; claim: KubeObject; held: HeldAddress[] }): Promise<void> {
  const { kind, pool, held } = input;
  const { client } = claimAccess(scope.deps, kind);
  let claim: KubeObject;
  try {
    // The cache may lag: another process (or our previous pass) may have served it already.
    claim = await client.get({ namespace: scope.namespace, name: input.claim.metadata.name ?? '' }, { signal: scope.signal });
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  if (claim.metadata.deletionTimestamp || kind.addressNameOf(claim)) return;
  if (pool.metadata.deletionTimestamp) {
    await recordClaimFailure(scope, kind, claim, { reason: 'PoolNotReady', message: `IPPool ${scope.poolName} is being deleted` });
    return;
  }
  claim = await addFinalizer(client, claim, kind.claimFinalizer, { strategy: 'merge', signal: scope.signal });
  const claimName = claim.metadata.name ?? '';

  const existing = held.find((address) => address.kind === kind && belongsTo(address, claim) && !address.deleting);
  // As below: an object another process made for this claim is not ours to record while the
  // other API group holds its address, as that process is about to give it back.
  if (existing && !(await heldByOtherGroup(scope, kind, existing.name, existing.address))) {
    await recordAllocated(scope, { kind, claim, address: existing, createdHere: false, held });
    return;
  }
  const unavailable: string[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    let allocation;
    try {
      allocation = allocate({
        pool: pool.spec, claimName, inUse: [...held.map((address) => address.address), ...unavailable],
        requestedAddress: kind.requestedAddressOf(claim), random: scope.deps.random,
      });
    } catch (error) {
      if (!(error instanceof AllocationError)) throw error;
      await recordClaimFailure(scope, kind, claim, { reason: error.reason, message: error.message });
      return;
    }
    const name = ipAddressName(pool.spec.namePrefix, allocation.address);
    const object = kind.buildAddress({ pool, claim, name, allocation });
    const created = await scope.deps.addresses.create(kind, object, scope.signal);
    if (!created) {
      const taken = await scope.deps.addresses.get(kind, scope.namespace, name, scope.signal);
      // Another process is serving this very claim and got there first. Its object is ours to
      // record only if the other API group does not hold the address: when it does, that
      // process is about to give its object back, and a claim recorded now would name an
      // address object that goes while the other group's keeps the address.
      if (taken && belongsTo(taken, claim) && !taken.deleting && taken.poolName === scope.poolName
        && !(await heldByOtherGroup(scope, kind, name, allocation.address))) {
        held.push(taken);
        await recordAllocated(scope, { kind, claim, address: taken, createdHere: false, held });
        return;
      }
      if (taken) held.push(taken);
      scope.log.debug('address taken meanwhile; trying the next', { claim: claimName, address: allocation.address, by: taken?.claimName });
      unavailable.push(allocation.address);
      continue;
    }
    if (await heldByOtherGroup(scope, kind, name, allocation.address)) {
      scope.log.debug('address taken in the other API group; giving it back', { claim: claimName, address: allocation.address });
      await scope.deps.addresses.release(created, scope.signal);
      unavailable.push(allocation.address);
      continue;
    }
    held.push(created);
    await recordAllocated(scope, { kind, claim, address: created, createdHere: true, held });
    return;
  }
  throw new Error(`${kind.label} ${claimName}: ${MAX_ATTEMPTS} addresses were taken by others while allocating; retrying`);
}

/**
 * The two API groups' objects of one address share a name but not a lock. Each side checks
 * the other after creating its own and backs off when it finds one, so at most one keeps it
 * (both may back off; then both try again).
 */
async function heldByOtherGroup(scope: PoolScope, kind: ClaimKind, name: string, address: string): Promise<boolean> {
  for (const other of CLAIM_KINDS) {
    if (other === kind) continue;
    const found = await scope.deps.addresses.get(other, scope.namespace, name, scope.signal);
    if (found && !found.deleting && canonicalIp(found.address) === canonicalIp(address)) return true;
  }
  return false;
}

async function recordAllocated(
  scope: PoolScope,
  input: { kind: ClaimKind; claim: KubeObject; address: HeldAddress; createdHere: boolean; held: HeldAddress[] },
): Promise<void> {
  const { kind, address } = input;
  let claim: KubeObject | undefined = input.claim;
  for (let attempt = 0; attempt < MAX_STATUS_WRITES && claim; attempt += 1) {
    const outcome = await writeClaimStatus(scope, kind, claim, kind.allocatedStatus(claim, address.name, new Date(scope.deps.clock.now())));
    if (outcome.written) {
      scope.log.info('address allocated', { claim: claim.metadata.name, kind: kind.label, address: address.address, ipAddress: address.name });
      return;
    }
    claim = outcome.current;
    const recorded = claim ? kind.addressNameOf(claim) : undefined;
    if (recorded === address.name) return;
    if (recorded || !claim || claim.metadata.deletionTimestamp) break;
  }
  // The claim went, or took another address (another process won): this one goes back.
  if (input.createdHere) {
    await scope.deps.addresses.release(address, scope.signal);
    input.held.splice(input.held.indexOf(address), 1);
    scope.log.info('gave back an address another allocation made redundant', { ipAddress: address.name });
  }
}
