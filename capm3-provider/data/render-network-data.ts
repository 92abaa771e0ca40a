import type { LinkMac, NetworkDataTemplate, RouteTemplate, StaticNetworkTemplate } from '../api/index.ts';
import { netmask } from './netmask.ts';
import type { PoolAddress, RenderSources } from './render-sources.ts';
import { DataRenderError, annotationOf, hostInterfaceMac, poolAddress } from './render-sources.ts';

type Family = 'ipv4' | 'ipv6';
type Json = Record<string, unknown>;
type Sources = Pick<RenderSources, 'm3m' | 'machine' | 'host' | 'addresses'>;

const MAC = /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/;
const DEFAULT_MTU = 1500;

/** CAPM3's renderNetworkData: OpenStack network_data.json (links, networks, services) for the config drive. */
export function renderNetworkData(template: NetworkDataTemplate, sources: Sources): { links: Json[]; networks: Json[]; services: Json[] } {
  return {
    links: template.links ? renderLinks(template.links, sources) : [],
    networks: template.networks ? renderNetworks(template.networks, sources) : [],
    services: template.services ? dnsServices(template.services, sources.addresses, 'services') : [],
  };
}

function renderLinks(links: NonNullable<NetworkDataTemplate['links']>, sources: Sources): Json[] {
  const rendered: Json[] = [];
  for (const bond of links.bonds ?? []) {
    const entry: Json = {
      type: 'bond', id: bond.id, mtu: bond.mtu ?? DEFAULT_MTU, bond_mode: bond.bondMode,
      // A bond without bondLinks renders them as null, as CAPM3's Go nil slice does.
      bond_xmit_hash_policy: bond.bondXmitHashPolicy ?? '', bond_links: bond.bondLinks ?? null,
    };
    if (bond.name) entry.name = bond.name;
    if (bond.macAddress) entry.ethernet_mac_address = linkMac(bond.macAddress, sources, `bond ${bond.id}`);
    const clashing = (bond.parameters ?? []).filter((parameter) => `bond_${parameter.name}` in entry).map((parameter) => parameter.name);
    if (clashing.length) throw new DataRenderError(`bond ${bond.id}: parameters ${clashing.join(', ')} would override its structured fields`);
    for (const parameter of bond.parameters ?? []) entry[`bond_${parameter.name}`] = parameter.value;
    rendered.push(entry);
  }
  for (const ethernet of links.ethernets ?? []) {
    const entry: Json = { type: ethernet.type, id: ethernet.id, mtu: ethernet.mtu ?? DEFAULT_MTU };
    if (ethernet.name) entry.name = ethernet.name;
    if (ethernet.macAddress) entry.ethernet_mac_address = linkMac(ethernet.macAddress, sources, `link ${ethernet.id}`);
    rendered.push(entry);
  }
  for (const vlan of links.vlans ?? []) {
    const entry: Json = { type: 'vlan', id: vlan.id, mtu: vlan.mtu ?? DEFAULT_MTU, vlan_link: vlan.vlanLink, vlan_id: vlan.vlanID };
    if (vlan.name) entry.name = vlan.name;
    if (vlan.macAddress) entry.vlan_mac_address = linkMac(vlan.macAddress, sources, `vlan ${vlan.id}`);
    rendered.push(entry);
  }
  return rendered;
}

function linkMac(mac: LinkMac, sources: Sources, field: string): string {
  let value = '';
  if (mac.string) value = mac.string;
  else if (mac.fromHostInterface) value = hostInterfaceMac(sources.host, mac.fromHostInterface);
  else if (mac.fromAnnotation) value = annotationOf(sources, mac.fromAnnotation.object, mac.fromAnnotation.annotation);
  if (!MAC.test(value)) throw new DataRenderError(`${field}: bad MAC address '${value}'`);
  return value;
}

function renderNetworks(networks: NonNullable<NetworkDataTemplate['networks']>, sources: Sources): Json[] {
  const rendered: Json[] = [];
  const staticNetwork = (network: StaticNetworkTemplate, family: Family) => {
    const address = poolAddress(sources.addresses, networkPool(network, sources), `network ${network.id}`);
    rendered.push({
      type: family, id: network.id, link: network.link, netmask: netmask(address.prefix, family),
      ip_address: address.address, routes: routes(network.routes, family, sources),
    });
  };
  for (const network of networks.ipv4 ?? []) staticNetwork(network, 'ipv4');
  for (const network of networks.ipv6 ?? []) staticNetwork(network, 'ipv6');
  const dynamic = (list: typeof networks.ipv4DHCP, type: string, family: Family) => {
    for (const network of list ?? []) rendered.push({ type, id: network.id, link: network.link, routes: routes(network.routes, family, sources) });
  };
  dynamic(networks.ipv4DHCP, 'ipv4_dhcp', 'ipv4');
  dynamic(networks.ipv6DHCP, 'ipv6_dhcp', 'ipv6');
  dynamic(networks.ipv6SLAAC, 'ipv6_slaac', 'ipv6');
  return rendered;
}

/** The pool name a static network's address comes from: annotation, then pool ref, then IPPool name. */
export function networkPool(network: StaticNetworkTemplate, sources: Pick<Sources, 'm3m' | 'machine' | 'host'>): string {
  if (network.fromPoolAnnotation) {
    const name = annotationOf(sources, network.fromPoolAnnotation.object, network.fromPoolAnnotation.annotation);
    if (!name) throw new DataRenderError(`network ${network.id}: annotation ${network.fromPoolAnnotation.annotation} on ${network.fromPoolAnnotation.object} names no pool`);
    return name;
  }
  const name = network.fromPoolRef?.name ?? network.ipAddressFromIPPool;
  if (!name) throw new DataRenderError(`network ${network.id}: needs ipAddressFromIPPool, fromPoolRef or fromPoolAnnotation`);
  return name;
}

/** The pool a route's gateway comes from, if any. */
export function gatewayPool(route: RouteTemplate, sources: Pick<Sources, 'm3m' | 'machine' | 'host'>): string | undefined {
  const gateway = route.gateway;
  if (!gateway || gateway.string) return undefined;
  if (gateway.fromPoolAnnotation) return annotationOf(sources, gateway.fromPoolAnnotation.object, gateway.fromPoolAnnotation.annotation) || undefined;
  return gateway.fromPoolRef?.name ?? gateway.fromIPPool;
}

function routes(list: readonly RouteTemplate[] | undefined, family: Family, sources: Sources): Json[] {
  return (list ?? []).map((route) => {
    const pool = gatewayPool(route, sources);
    const gateway = route.gateway?.string ?? (pool ? poolAddress(sources.addresses, pool, `route to ${route.network}`).gateway ?? '' : '');
    return {
      network: route.network, netmask: netmask(route.prefix ?? 0, family), gateway,
      services: route.services ? dnsServices(route.services, sources.addresses, `route to ${route.network}`) : [],
    };
  });
}

function dnsServices(services: { dns?: string[] | undefined; dnsFromIPPool?: string | undefined }, addresses: ReadonlyMap<string, PoolAddress>, field: string): Json[] {
  const servers = [...(services.dns ?? [])];
  if (services.dnsFromIPPool) servers.push(...(poolAddress(addresses, services.dnsFromIPPool, field).dnsServers ?? []));
  return servers.map((address) => ({ type: 'dns', address }));
}
