import type { KubeObject, ResourceType } from '../../../operator/runtime/index.ts';
import { setCondition } from '../../../operator/runtime/index.ts';
import {
  ALLOCATED_REASON, CLAIM_READY_CONDITION, CLUSTER_API_IPADDRESSCLAIM_FINALIZER, CLUSTER_API_IPADDRESS_FINALIZER,
  CLUSTER_API_IPAM_API_VERSION, ClusterApiIPAddressResource, IPADDRESS_FINALIZER, IPAM_API_VERSION, IPAM_GROUP,
  IPAddressClaimResource, IPAddressResource, IPCLAIM_FINALIZER, IPClaimResource, IPPoolResource, REQUESTED_IP_ANNOTATION,
  clusterApiIPAddressSchema, ipAddressClaimSchema, ipAddressSchema, ipClaimSchema,
} from '../api/index.ts';
import type { IPPool } from '../api/index.ts';
import type { Allocation, AllocationFailure } from '../allocation/index.ts';

/** An address object of either API group, as the pool sees it. */
export interface HeldAddress {
  kind: ClaimKind;
  name: string;
  address: string;
  poolName: string;
  claimName: string;
  /** From the claim ownerReference we set; undefined on objects made by hand. */
  claimUid: string | undefined;
  deleting: boolean;
  object: KubeObject;
}

/**
 * What differs between Metal3's IPClaim -> ipam.metal3.io IPAddress and Cluster API's
 * IPAddressClaim -> ipam.cluster.x-k8s.io IPAddress; the pool serves both the same way.
 */
export interface ClaimKind {
  readonly label: string;
  readonly claimResource: ResourceType;
  readonly addressResource: ResourceType;
  readonly claimFinalizer: string;
  readonly addressFinalizer: string;
  /** The pool a claim asks for (same namespace), or undefined when it names no IPPool of ours. */
  poolNameOf(claim: KubeObject): string | undefined;
  /** The address object named in the claim's status. */
  addressNameOf(claim: KubeObject): string | undefined;
  requestedAddressOf(claim: KubeObject): string | undefined;
  /** The pool and claim an address object belongs to, or undefined for another pool's kind. */
  readAddress(object: KubeObject): HeldAddress | undefined;
  buildAddress(input: { pool: IPPool; claim: KubeObject; name: string; allocation: Allocation }): KubeObject;
  /** Status merge patches. */
  allocatedStatus(claim: KubeObject, addressName: string, now: Date): Record<string, unknown>;
  failedStatus(claim: KubeObject, failure: { reason: AllocationFailure | 'PoolNotReady'; message: string }, now: Date): Record<string, unknown>;
  /** The failure message the claim's status already shows, if any. */
  failureOf(claim: KubeObject): string | undefined;
}

function claimUidOf(object: KubeObject, claimKind: string): string | undefined {
  return object.metadata.ownerReferences?.find((owner) => owner.kind === claimKind)?.uid || undefined;
}

/** Whether the address object was made for this very claim (not an earlier one of the same name). */
export function belongsTo(address: HeldAddress, claim: KubeObject): boolean {
  if (address.claimName !== claim.metadata.name) return false;
  return address.claimUid === undefined || claim.metadata.uid === undefined || address.claimUid === claim.metadata.uid;
}

function ownerReferences(pool: IPPool, claim: KubeObject, claimApiVersion: string, claimKind: string) {
  return [
    { apiVersion: IPAM_API_VERSION, kind: IPPoolResource.kind, name: pool.metadata.name ?? '', uid: pool.metadata.uid ?? '' },
    { apiVersion: claimApiVersion, kind: claimKind, name: claim.metadata.name ?? '', uid: claim.metadata.uid ?? '' },
  ];
}

function addressMetadata(input: { pool: IPPool; claim: KubeObject; name: string }, finalizer: string, claimApiVersion: string, claimKind: string) {
  return {
    name: input.name,
    namespace: input.pool.metadata.namespace,
    finalizers: [finalizer],
    ownerReferences: ownerReferences(input.pool, input.claim, claimApiVersion, claimKind),
    ...(input.claim.metadata.labels ? { labels: { ...input.claim.metadata.labels } } : {}),
  };
}

export const metal3Claims: ClaimKind = {
  label: 'IPClaim',
  claimResource: IPClaimResource,
  addressResource: IPAddressResource,
  claimFinalizer: IPCLAIM_FINALIZER,
  addressFinalizer: IPADDRESS_FINALIZER,
  poolNameOf: (claim) => ipClaimSchema.safeParse(claim).data?.spec.pool.name || undefined,
  addressNameOf: (claim) => ipClaimSchema.safeParse(claim).data?.status?.address?.name || undefined,
  requestedAddressOf: (claim) => claim.metadata.annotations?.[REQUESTED_IP_ANNOTATION] || undefined,
  readAddress(object) {
    const parsed = ipAddressSchema.safeParse(object).data;
    if (!parsed?.spec.pool.name) return undefined;
    return { kind: metal3Claims, name: object.metadata.name ?? '', address: parsed.spec.address, poolName: parsed.spec.pool.name, claimName: parsed.spec.claim.name ?? '', claimUid: claimUidOf(object, IPClaimResource.kind),
      deleting: Boolean(object.metadata.deletionTimestamp), object };
  },
  buildAddress(input) {
    const { pool, claim, allocation } = input;
    const namespace = pool.metadata.namespace;
    return {
      apiVersion: IPAM_API_VERSION,
      kind: IPAddressResource.kind,
      metadata: addressMetadata(input, IPADDRESS_FINALIZER, IPAM_API_VERSION, IPClaimResource.kind),
      spec: {
        address: allocation.address,
        pool: { name: pool.metadata.name, namespace },
        claim: { name: claim.metadata.name, namespace },
        prefix: allocation.prefix,
        ...(allocation.gateway ? { gateway: allocation.gateway } : {}),
        ...(allocation.dnsServers ? { dnsServers: allocation.dnsServers } : {}),
      },
    } as KubeObject;
  },
  allocatedStatus: (claim, addressName) => ({ address: { name: addressName, namespace: claim.metadata.namespace }, errorMessage: null }),
  failedStatus: (_claim, failure) => ({ errorMessage: failure.message }),
  failureOf: (claim) => ipClaimSchema.safeParse(claim).data?.status?.errorMessage,
};

function readyCondition(claim: KubeObject, input: { status: 'True' | 'False'; reason: string; message: string }, now: Date) {
  const conditions = ipAddressClaimSchema.safeParse(claim).data?.status?.conditions;
  return setCondition(conditions, { type: CLAIM_READY_CONDITION, ...input, ...(claim.metadata.generation ? { observedGeneration: claim.metadata.generation } : {}) }, { now });
}

export const clusterApiClaims: ClaimKind = {
  label: 'IPAddressClaim',
  claimResource: IPAddressClaimResource,
  addressResource: ClusterApiIPAddressResource,
  claimFinalizer: CLUSTER_API_IPADDRESSCLAIM_FINALIZER,
  addressFinalizer: CLUSTER_API_IPADDRESS_FINALIZER,
  poolNameOf(claim) {
    const ref = ipAddressClaimSchema.safeParse(claim).data?.spec.poolRef;
    if (!ref?.name || ref.apiGroup !== IPAM_GROUP || ref.kind !== IPPoolResource.kind) return undefined;
    return ref.name;
  },
  addressNameOf: (claim) => ipAddressClaimSchema.safeParse(claim).data?.status?.addressRef?.name || undefined,
  requestedAddressOf: (claim) => claim.metadata.annotations?.[REQUESTED_IP_ANNOTATION] || undefined,
  readAddress(object) {
    const parsed = clusterApiIPAddressSchema.safeParse(object).data;
    const ref = parsed?.spec.poolRef;
    if (!parsed || !ref?.name || ref.apiGroup !== IPAM_GROUP || ref.kind !== IPPoolResource.kind) return undefined;
    return { kind: clusterApiClaims, name: object.metadata.name ?? '', address: parsed.spec.address, poolName: ref.name, claimName: parsed.spec.claimRef.name, claimUid: claimUidOf(object, IPAddressClaimResource.kind),
      deleting: Boolean(object.metadata.deletionTimestamp), object };
  },
  buildAddress(input) {
    const { pool, claim, allocation } = input;
    return {
      apiVersion: CLUSTER_API_IPAM_API_VERSION,
      kind: ClusterApiIPAddressResource.kind,
      metadata: addressMetadata(input, CLUSTER_API_IPADDRESS_FINALIZER, CLUSTER_API_IPAM_API_VERSION, IPAddressClaimResource.kind),
      spec: {
        address: allocation.address,
        prefix: allocation.prefix,
        ...(allocation.gateway ? { gateway: allocation.gateway } : {}),
        claimRef: { name: claim.metadata.name },
        poolRef: { apiGroup: IPAM_GROUP, kind: IPPoolResource.kind, name: pool.metadata.name },
      },
    } as KubeObject;
  },
  allocatedStatus: (claim, addressName, now) => ({
    addressRef: { name: addressName },
    conditions: readyCondition(claim, { status: 'True', reason: ALLOCATED_REASON, message: `address ${addressName} allocated` }, now),
  }),
  failedStatus: (claim, failure, now) => ({
    conditions: readyCondition(claim, { status: 'False', reason: failure.reason, message: failure.message }, now),
  }),
  failureOf(claim) {
    const ready = ipAddressClaimSchema.safeParse(claim).data?.status?.conditions?.find((c) => c.type === CLAIM_READY_CONDITION);
    return ready?.status === 'False' ? ready.message : undefined;
  },
};

export const CLAIM_KINDS: readonly ClaimKind[] = [metal3Claims, clusterApiClaims];
