import type { IPPoolReference, Metal3DataTemplateSpec } from '../api/index.ts';
import { gatewayPool, networkPool } from './render-network-data.ts';
import type { RenderSources } from './render-sources.ts';
import { DataRenderError } from './render-sources.ts';

export const METAL3_IPAM_GROUP = 'ipam.metal3.io';
export const METAL3_IPPOOL_KIND = 'IPPool';

/** A pool with its group and kind filled in: Metal3's IPPool unless the template says otherwise. */
export interface PoolRef {
  name: string;
  apiGroup: string;
  kind: string;
}

export function isMetal3Pool(pool: PoolRef): boolean {
  return pool.apiGroup === METAL3_IPAM_GROUP && pool.kind === METAL3_IPPOOL_KIND;
}

/** Every pool the template takes an address from, by name; one name used with two kinds is an error. */
export function referencedPools(spec: Metal3DataTemplateSpec, sources: Pick<RenderSources, 'm3m' | 'machine' | 'host'>): Map<string, PoolRef> {
  const pools = new Map<string, PoolRef>();
  const add = (ref: IPPoolReference | string | undefined) => {
    if (!ref) return;
    const pool = typeof ref === 'string'
      ? { name: ref, apiGroup: METAL3_IPAM_GROUP, kind: METAL3_IPPOOL_KIND }
      : { name: ref.name, apiGroup: ref.apiGroup || METAL3_IPAM_GROUP, kind: ref.kind || METAL3_IPPOOL_KIND };
    const known = pools.get(pool.name);
    if (known && (known.apiGroup !== pool.apiGroup || known.kind !== pool.kind)) {
      throw new DataRenderError(`pool '${pool.name}' is referenced as both ${known.kind}.${known.apiGroup} and ${pool.kind}.${pool.apiGroup}`);
    }
    pools.set(pool.name, pool);
  };
  const metaData = spec.metaData;
  for (const list of [metaData?.ipAddressesFromPool, metaData?.prefixesFromPool, metaData?.gatewaysFromPool, metaData?.dnsServersFromPool]) {
    for (const entry of list ?? []) add(entry);
  }
  const networks = spec.networkData?.networks;
  for (const network of [...(networks?.ipv4 ?? []), ...(networks?.ipv6 ?? [])]) add(network.fromPoolAnnotation || !network.fromPoolRef ? networkPool(network, sources) : network.fromPoolRef);
  for (const network of [...(networks?.ipv4 ?? []), ...(networks?.ipv6 ?? []), ...(networks?.ipv4DHCP ?? []),
    ...(networks?.ipv6DHCP ?? []), ...(networks?.ipv6SLAAC ?? [])]) {
    for (const route of network.routes ?? []) {
      add(route.gateway?.fromPoolAnnotation || !route.gateway?.fromPoolRef ? gatewayPool(route, sources) : route.gateway.fromPoolRef);
      add(route.services?.dnsFromIPPool);
    }
  }
  add(spec.networkData?.services?.dnsFromIPPool);
  return pools;
}
