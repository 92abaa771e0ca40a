/** Pure address arithmetic and allocation: no Kubernetes, no I/O. */
export { ipAddressName } from './address-name.ts';
export { AllocationError, allocate } from './allocate.ts';
export type { Allocation, AllocationFailure, AllocationRequest, PoolSettings } from './allocate.ts';
export { canonicalIp, formatIp, parseIp } from './ip-address.ts';
export type { Ip, IpFamily } from './ip-address.ts';
export { InvalidPoolError, resolveRange } from './ranges.ts';
export type { AddressRange } from './ranges.ts';
export { poolUsage } from './usage.ts';
export type { PoolUsage } from './usage.ts';
