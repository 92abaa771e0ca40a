import type { BareMetalHost } from '../../operator/api/index.ts';
import type { Machine, Metal3Machine } from '../api/index.ts';

/** An address a pool gave this machine, as read from its IPAddress. */
export interface PoolAddress {
  address: string;
  prefix?: number;
  gateway?: string;
  dnsServers?: readonly string[];
}

/** Everything rendering reads: the objects named by the template's sources and the addresses per pool name. */
export interface RenderSources {
  index: number;
  namespace: string;
  m3m: Metal3Machine;
  machine: Machine;
  host: BareMetalHost;
  addresses: ReadonlyMap<string, PoolAddress>;
}

/** A template that cannot be rendered for this machine; the message names the field and the reason. */
export class DataRenderError extends Error {
  override readonly name = 'DataRenderError';
}

type SourceObjects = Pick<RenderSources, 'm3m' | 'machine' | 'host'>;

function sourceObject(sources: SourceObjects, object: string) {
  switch (object.toLowerCase()) {
    case 'metal3machine': return sources.m3m;
    case 'machine': return sources.machine;
    case 'baremetalhost': return sources.host;
    default: throw new DataRenderError(`unknown object type '${object}' (use machine, metal3machine or baremetalhost)`);
  }
}

export function objectNameOf(sources: SourceObjects, object: string): string {
  return sourceObject(sources, object).metadata.name ?? '';
}

export function labelOf(sources: SourceObjects, object: string, label: string): string {
  return sourceObject(sources, object).metadata.labels?.[label] ?? '';
}

export function annotationOf(sources: SourceObjects, object: string, annotation: string): string {
  return sourceObject(sources, object).metadata.annotations?.[annotation] ?? '';
}

/** MAC of the host NIC with this name, from inspection. */
export function hostInterfaceMac(host: BareMetalHost, name: string): string {
  const nics = host.status?.hardware?.nics;
  if (!nics?.length) throw new DataRenderError(`BareMetalHost ${host.metadata.name} has no NICs in status.hardware (not inspected)`);
  const nic = nics.find((candidate) => candidate.name === name);
  if (!nic?.mac) throw new DataRenderError(`BareMetalHost ${host.metadata.name} has no NIC named '${name}'`);
  return nic.mac;
}

export function poolAddress(addresses: ReadonlyMap<string, PoolAddress>, pool: string, field: string): PoolAddress {
  const address = addresses.get(pool);
  if (!address) throw new DataRenderError(`${field}: no address from pool '${pool}'`);
  return address;
}
