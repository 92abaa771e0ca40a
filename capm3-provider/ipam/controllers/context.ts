import type { Clock, EventRecorder, Informer, KubeObject, Logger, ResourceClient } from '../../../operator/runtime/index.ts';
import type { IPPool } from '../api/index.ts';
import type { AddressStore } from './address-store.ts';
import type { ClaimKind } from './claim-kinds.ts';

export interface ClaimAccess {
  client: ResourceClient<KubeObject>;
  cache: Informer<KubeObject>;
}

/** Everything the IPPool reconciler talks to, built once in setupIpPoolController. */
export interface IpamDeps {
  pools: { client: ResourceClient<IPPool>; cache: Informer<IPPool> };
  claims: ReadonlyMap<ClaimKind, ClaimAccess>;
  addresses: AddressStore;
  events: EventRecorder;
  clock: Clock;
  /** Random numbers in [0, 1) for the random allocation strategy. */
  random: () => number;
}

/** One reconcile of one pool. */
export interface PoolScope {
  deps: IpamDeps;
  namespace: string;
  poolName: string;
  log: Logger;
  signal: AbortSignal;
}

export function claimAccess(deps: IpamDeps, kind: ClaimKind): ClaimAccess {
  const access = deps.claims.get(kind);
  if (!access) throw new Error(`no client for ${kind.label}`);
  return access;
}
