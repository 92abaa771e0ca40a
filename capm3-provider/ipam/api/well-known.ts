/** Finalizer and annotation names shared with metal3-io/ip-address-manager; the exact strings matter. */

export const IPPOOL_FINALIZER = 'ippool.ipam.metal3.io';
export const IPCLAIM_FINALIZER = 'ipclaim.ipam.metal3.io';
export const IPADDRESS_FINALIZER = 'ipaddress.ipam.metal3.io';

/** Upstream's finalizers on Cluster API IPAddressClaims and the IPAddresses made for them. */
export const CLUSTER_API_IPADDRESSCLAIM_FINALIZER = 'ipam.metal3.io/ipaddressclaim';
export const CLUSTER_API_IPADDRESS_FINALIZER = 'ipam.metal3.io/ipaddress';

/** On a claim: asks for this exact address (upstream's `ipAddress` annotation). */
export const REQUESTED_IP_ANNOTATION = 'ipAddress';

/** Reasons of a Cluster API IPAddressClaim's Ready condition. */
export const CLAIM_READY_CONDITION = 'Ready';
export const POOL_EXHAUSTED_REASON = 'PoolExhausted';
export const ALLOCATION_FAILED_REASON = 'AllocationFailed';
export const ALLOCATED_REASON = 'Allocated';
