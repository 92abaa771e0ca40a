import type { BareMetalHost } from '../../../operator/api/index.ts';
import { BareMetalHostResource } from '../../../operator/api/index.ts';
import type { Controller, KubeObject, Manager, MapFunc, ObjectName } from '../../../operator/runtime/index.ts';
import { SecretResource, annotationChanged, deletionRequested, finalizerChanged, generationChanged, or } from '../../../operator/runtime/index.ts';
import {
  ClusterResource, MachineResource, Metal3DataClaimResource, Metal3DataResource, Metal3DataTemplateResource, Metal3MachineResource,
} from '../../api/index.ts';
import type { Cluster, Machine, Metal3Data, Metal3DataClaim, Metal3DataTemplate, Metal3Machine } from '../../api/index.ts';
import { ClusterApiIPAddressResource, IPAddressClaimResource, IPAddressResource, IPClaimResource } from '../../ipam/index.ts';
import type { ClusterApiIPAddress, IPAddress, IPAddressClaim, IPClaim } from '../../ipam/index.ts';
import { filteredReconciler } from '../../watch-filter.ts';
import type { WatchFilter } from '../../watch-filter.ts';
import { Metal3DataReconciler } from './reconciler.ts';

export const METAL3_DATA_CONTROLLER = 'metal3data';

export interface Metal3DataControllerOptions {
  maxConcurrentReconciles: number;
  requeueAfterMs: number;
  /** CAPM3's --enable-bmh-name-based-preallocation. */
  bmhNameBasedPreallocation: boolean;
  watchFilter?: WatchFilter;
}

/**
 * Metal3Data, woken by the Metal3Machine they render for (its host annotation). Address claims
 * are read live and polled (requeue) rather than watched, so the provider runs without the IPAM
 * CRDs as long as no template takes addresses from a pool.
 */
export function setupMetal3DataController(manager: Manager, options: Metal3DataControllerOptions): Controller {
  const datas = manager.informer<Metal3Data>(Metal3DataResource);
  const reconciler = new Metal3DataReconciler({
    datas: { client: manager.client<Metal3Data>(Metal3DataResource), cache: datas },
    clusters: manager.informer<Cluster>(ClusterResource),
    templates: manager.informer<Metal3DataTemplate>(Metal3DataTemplateResource),
    claims: manager.informer<Metal3DataClaim>(Metal3DataClaimResource),
    metal3Machines: manager.informer<Metal3Machine>(Metal3MachineResource),
    machines: manager.informer<Machine>(MachineResource),
    hosts: manager.client<BareMetalHost>(BareMetalHostResource),
    secrets: manager.client<KubeObject>(SecretResource),
    addresses: {
      ipClaims: manager.client<IPClaim>(IPClaimResource),
      ipAddresses: manager.client<IPAddress>(IPAddressResource),
      addressClaims: manager.client<IPAddressClaim>(IPAddressClaimResource),
      capiAddresses: manager.client<ClusterApiIPAddress>(ClusterApiIPAddressResource),
    },
    events: manager.eventRecorder('metal3data-controller'),
    settings: { requeueAfterMs: options.requeueAfterMs, bmhNameBasedPreallocation: options.bmhNameBasedPreallocation },
  });
  const machineToData: MapFunc<Metal3Machine> = (m3m) =>
    datas.list(m3m.metadata.namespace)
      .filter((data) => data.metadata.ownerReferences?.some((owner) => owner.uid === m3m.metadata.uid))
      .map((data): ObjectName => ({ namespace: data.metadata.namespace, name: data.metadata.name ?? '' }));
  const changed = or(generationChanged, annotationChanged, finalizerChanged, deletionRequested);
  return manager
    .controller(METAL3_DATA_CONTROLLER)
    .for(Metal3DataResource, { predicates: options.watchFilter ? [changed, options.watchFilter.predicate] : [changed] })
    .watches(Metal3MachineResource, machineToData, { predicates: [annotationChanged] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(filteredReconciler(reconciler, { cache: datas, filter: options.watchFilter }));
}
