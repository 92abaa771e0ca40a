import type { Controller, KubeObject, Manager, MapFunc } from '../../../operator/runtime/index.ts';
import {
  annotationChanged, deletionRequested, finalizerChanged, generationChanged, labelChanged, or,
} from '../../../operator/runtime/index.ts';
import { IPPoolResource } from '../api/index.ts';
import type { IPPool } from '../api/index.ts';
import type { WatchFilter } from '../../watch-filter.ts';
import { AddressStore } from './address-store.ts';
import type { ClaimKind } from './claim-kinds.ts';
import { CLAIM_KINDS } from './claim-kinds.ts';
import type { ClaimAccess } from './context.ts';
import { createPoolMetrics } from './pool-metrics.ts';
import { IpPoolReconciler } from './pool-reconciler.ts';

export const IPPOOL_CONTROLLER = 'ippool';

export interface IpPoolControllerOptions {
  maxConcurrentReconciles: number;
  /** Only pools carrying this `cluster.x-k8s.io/watch-filter` value. */
  watchFilter?: WatchFilter;
}

/** A claim or address event wakes the pool it names; the pool's pass does the work. */
function toPool(read: (object: KubeObject) => string | undefined): MapFunc {
  return (object) => {
    const name = read(object);
    return name ? [{ namespace: object.metadata.namespace, name }] : [];
  };
}

/**
 * The IPPool controller of the ipam-controller-manager, woken by its pools, their claims and
 * their addresses; also exports each pool's size and allocated addresses from the pool cache.
 */
export function setupIpPoolController(manager: Manager, options: IpPoolControllerOptions): Controller {
  const pools = manager.informer<IPPool>(IPPoolResource);
  const { watchFilter } = options;
  createPoolMetrics(manager.registry, {
    pools: () => {
      if (!pools.hasSynced()) return undefined;
      return watchFilter ? pools.list().filter((pool) => watchFilter.accepts(pool)) : pools.list();
    },
  });
  const claims = new Map<ClaimKind, ClaimAccess>();
  const addressClients = new Map<ClaimKind, ReturnType<Manager['client']>>();
  for (const kind of CLAIM_KINDS) {
    claims.set(kind, { client: manager.client(kind.claimResource), cache: manager.informer(kind.claimResource) });
    addressClients.set(kind, manager.client(kind.addressResource));
  }
  const reconciler = new IpPoolReconciler({
    pools: { client: manager.client<IPPool>(IPPoolResource), cache: pools },
    claims,
    addresses: new AddressStore(addressClients),
    events: manager.eventRecorder('ipam.metal3.io/ippool-controller'),
    clock: manager.clock,
    random: Math.random,
  }, options.watchFilter ? { watchFilter: options.watchFilter } : {});

  // Status writes (ours or another process's) change nothing we act on.
  const changed = or(generationChanged, annotationChanged, labelChanged, finalizerChanged, deletionRequested);
  let builder = manager
    .controller(IPPOOL_CONTROLLER)
    .for(IPPoolResource, { predicates: options.watchFilter ? [changed, options.watchFilter.predicate] : [changed] });
  for (const kind of CLAIM_KINDS) {
    builder = builder
      .watches(kind.claimResource, toPool((claim) => kind.poolNameOf(claim)), { predicates: [changed] })
      .watches(kind.addressResource, toPool((address) => kind.readAddress(address)?.poolName));
  }
  return builder.withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles }).complete(reconciler);
}
