import type { KubeObject, ResourceClient } from '../../../operator/runtime/index.ts';
import { isAlreadyExists, isNotFound, removeFinalizer } from '../../../operator/runtime/index.ts';
import { CLUSTER_NAME_LABEL, DATA_NAME_LABEL, INFRASTRUCTURE_API_VERSION, METAL3_DATA_FINALIZER, POOL_NAME_LABEL } from '../../api/index.ts';
import type { Metal3Data } from '../../api/index.ts';
import type { PoolAddress, PoolRef } from '../../data/index.ts';
import { isMetal3Pool } from '../../data/index.ts';
import {
  CLUSTER_API_IPAM_API_VERSION, IPAM_API_VERSION, clusterApiIPAddressSchema, ipAddressClaimSchema, ipAddressSchema, ipClaimSchema,
} from '../../ipam/index.ts';
import type { ClusterApiIPAddress, IPAddress, IPAddressClaim, IPClaim } from '../../ipam/index.ts';

/** Clients for both address APIs: Metal3's IPClaim/IPAddress and Cluster API's IPAddressClaim/IPAddress. */
export interface AddressClients {
  ipClaims: ResourceClient<IPClaim>;
  ipAddresses: ResourceClient<IPAddress>;
  addressClaims: ResourceClient<IPAddressClaim>;
  capiAddresses: ResourceClient<ClusterApiIPAddress>;
}

export type AddressOutcome =
  | { kind: 'ready'; addresses: Map<string, PoolAddress> }
  | { kind: 'waiting'; why: string }
  | { kind: 'failed'; why: string };

/** `<metal3data>-<pool>`: the claim a Metal3Data makes on each pool (CAPM3's naming). */
export function addressClaimName(data: Metal3Data, pool: string): string {
  return `${data.metadata.name}-${pool}`;
}

/**
 * CAPM3's getAddressesFromPool: one claim per pool, owned by the Metal3Data and carrying its
 * finalizer; the address once the IPAM controller has allocated it. A claim left over from an
 * earlier Metal3Data of the same name (a reused index) is waited out, never adopted.
 */
export async function addressesFromPools(
  clients: AddressClients,
  options: {
    data: Metal3Data; pools: Map<string, PoolRef>; clusterName: string; signal: AbortSignal;
    /** Set with --enable-bmh-name-based-preallocation: new Metal3 IPClaims are `<host>-<pool>`, so a pool's preAllocations can name hosts. */
    hostName?: string;
  },
): Promise<AddressOutcome> {
  const addresses = new Map<string, PoolAddress>();
  const waiting: string[] = [];
  for (const pool of options.pools.values()) {
    const outcome = isMetal3Pool(pool) ? await metal3Address(clients, pool, options) : await clusterApiAddress(clients, pool, options);
    if (outcome.kind === 'failed') return outcome;
    if (outcome.kind === 'waiting') waiting.push(outcome.why);
    else addresses.set(pool.name, outcome.address);
  }
  return waiting.length ? { kind: 'waiting', why: waiting.join('; ') } : { kind: 'ready', addresses };
}

type OneAddress = { kind: 'ready'; address: PoolAddress } | { kind: 'waiting'; why: string } | { kind: 'failed'; why: string };

function claimMetadata(data: Metal3Data, pool: string, clusterName: string, options: { hostName?: string } = {}) {
  // CAPM3 labels a host-named claim with its data and pool: its name no longer says which it serves.
  const hostNamed: Record<string, string> = options.hostName ? { [DATA_NAME_LABEL]: data.metadata.name ?? '', [POOL_NAME_LABEL]: pool } : {};
  return {
    name: options.hostName ? `${options.hostName}-${pool}` : addressClaimName(data, pool),
    namespace: data.metadata.namespace,
    finalizers: [METAL3_DATA_FINALIZER],
    labels: { ...(data.metadata.labels ?? {}), ...(clusterName ? { [CLUSTER_NAME_LABEL]: clusterName } : {}), ...hostNamed },
    ownerReferences: [{ apiVersion: INFRASTRUCTURE_API_VERSION, kind: 'Metal3Data', name: data.metadata.name ?? '', uid: data.metadata.uid ?? '', controller: true }],
  };
}

/** Gets the claim, creating it when missing; undefined when it was just created (read again next pass). */
async function ensureClaim<T extends KubeObject>(client: ResourceClient<T>, claim: T, signal: AbortSignal): Promise<T | undefined> {
  try {
    return await client.get({ namespace: claim.metadata.namespace ?? '', name: claim.metadata.name ?? '' }, { signal });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  try {
    await client.create(claim, { signal });
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  return undefined;
}

/** A claim of that name owned by another (earlier) Metal3Data: not ours to read or keep. */
async function foreignClaim(client: ResourceClient<KubeObject>, claim: KubeObject, data: Metal3Data, signal: AbortSignal): Promise<string | undefined> {
  if (claim.metadata.ownerReferences?.some((owner) => owner.uid === data.metadata.uid)) return undefined;
  if (claim.metadata.deletionTimestamp) await removeFinalizer(client, claim, METAL3_DATA_FINALIZER, { signal });
  return `claim ${claim.metadata.name} belongs to an earlier Metal3Data; waiting for it to go`;
}

/**
 * The host name a new claim on this pool takes, with --enable-bmh-name-based-preallocation; none
 * when a claim named after the Metal3Data exists already (made before the flag), which CAPM3 keeps using.
 */
async function claimHostName(client: ResourceClient<IPClaim>, pool: PoolRef, options: { data: Metal3Data; hostName?: string; signal: AbortSignal }): Promise<string | undefined> {
  if (!options.hostName) return undefined;
  try {
    await client.get({ namespace: options.data.metadata.namespace ?? '', name: addressClaimName(options.data, pool.name) }, { signal: options.signal });
    return undefined;
  } catch (error) {
    if (isNotFound(error)) return options.hostName;
    throw error;
  }
}

async function metal3Address(clients: AddressClients, pool: PoolRef, options: { data: Metal3Data; clusterName: string; hostName?: string; signal: AbortSignal }): Promise<OneAddress> {
  const { data, signal } = options;
  const hostName = await claimHostName(clients.ipClaims, pool, options);
  const wanted: IPClaim = {
    apiVersion: IPAM_API_VERSION, kind: 'IPClaim', metadata: claimMetadata(data, pool.name, options.clusterName, hostName ? { hostName } : {}),
    spec: { pool: { name: pool.name, namespace: data.metadata.namespace } },
  };
  const found = await ensureClaim(clients.ipClaims, wanted, signal);
  if (!found) return { kind: 'waiting', why: `created IPClaim ${wanted.metadata.name}` };
  const claim = ipClaimSchema.parse(found);
  const foreign = await foreignClaim(clients.ipClaims as ResourceClient<KubeObject>, claim, data, signal);
  if (foreign) return { kind: 'waiting', why: foreign };
  if (claim.status?.errorMessage) return { kind: 'failed', why: `IP allocation from pool ${pool.name} failed: ${claim.status.errorMessage}` };
  const addressName = claim.status?.address?.name;
  if (!addressName) return { kind: 'waiting', why: `IPClaim ${claim.metadata.name} has no address yet` };
  let address: IPAddress;
  try {
    address = ipAddressSchema.parse(await clients.ipAddresses.get({ namespace: data.metadata.namespace ?? '', name: addressName }, { signal }));
  } catch (error) {
    if (isNotFound(error)) return { kind: 'waiting', why: `IPAddress ${addressName} does not exist yet` };
    throw error;
  }
  return {
    kind: 'ready',
    address: {
      address: address.spec.address,
      ...(address.spec.prefix !== undefined ? { prefix: address.spec.prefix } : {}),
      ...(address.spec.gateway ? { gateway: address.spec.gateway } : {}),
      ...(address.spec.dnsServers ? { dnsServers: address.spec.dnsServers } : {}),
    },
  };
}

async function clusterApiAddress(clients: AddressClients, pool: PoolRef, options: { data: Metal3Data; clusterName: string; signal: AbortSignal }): Promise<OneAddress> {
  const { data, signal } = options;
  const wanted: IPAddressClaim = {
    apiVersion: CLUSTER_API_IPAM_API_VERSION, kind: 'IPAddressClaim', metadata: claimMetadata(data, pool.name, options.clusterName),
    spec: { ...(options.clusterName ? { clusterName: options.clusterName } : {}), poolRef: { name: pool.name, kind: pool.kind, apiGroup: pool.apiGroup } },
  };
  const found = await ensureClaim(clients.addressClaims, wanted, signal);
  if (!found) return { kind: 'waiting', why: `created IPAddressClaim ${wanted.metadata.name}` };
  const claim = ipAddressClaimSchema.parse(found);
  const foreign = await foreignClaim(clients.addressClaims as ResourceClient<KubeObject>, claim, data, signal);
  if (foreign) return { kind: 'waiting', why: foreign };
  const addressName = claim.status?.addressRef?.name;
  if (!addressName) {
    const ready = claim.status?.conditions?.find((condition) => condition.type === 'Ready' && condition.status === 'False');
    return { kind: 'waiting', why: `IPAddressClaim ${claim.metadata.name} has no address yet${ready?.message ? `: ${ready.message}` : ''}` };
  }
  let address: ClusterApiIPAddress;
  try {
    address = clusterApiIPAddressSchema.parse(await clients.capiAddresses.get({ namespace: data.metadata.namespace ?? '', name: addressName }, { signal }));
  } catch (error) {
    if (isNotFound(error)) return { kind: 'waiting', why: `IPAddress ${addressName} does not exist yet` };
    throw error;
  }
  return { kind: 'ready', address: { address: address.spec.address, prefix: address.spec.prefix, ...(address.spec.gateway ? { gateway: address.spec.gateway } : {}) } };
}

/**
 * CAPM3's ReleaseLeases, found by ownership rather than through the template (which may be gone
 * already): every claim this Metal3Data made loses our finalizer and is deleted; the IPAM
 * controller then frees the address. An address API that is not installed holds no claims.
 */
export async function releaseAddresses(clients: AddressClients, options: { data: Metal3Data; signal: AbortSignal }): Promise<string[]> {
  const released: string[] = [];
  const namespace = options.data.metadata.namespace ?? '';
  for (const client of [clients.ipClaims, clients.addressClaims] as ResourceClient<KubeObject>[]) {
    let claims: KubeObject[];
    try {
      claims = (await client.list({ namespace, signal: options.signal })).items;
    } catch (error) {
      if (isNotFound(error)) continue;
      throw error;
    }
    for (const claim of claims.filter((candidate) => candidate.metadata.ownerReferences?.some((owner) => owner.uid === options.data.metadata.uid))) {
      await removeFinalizer(client, claim, METAL3_DATA_FINALIZER, { signal: options.signal });
      if (!claim.metadata.deletionTimestamp) {
        try {
          await client.delete({ namespace, name: claim.metadata.name ?? '' }, { signal: options.signal });
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      }
      released.push(claim.metadata.name ?? '');
    }
  }
  return released;
}
