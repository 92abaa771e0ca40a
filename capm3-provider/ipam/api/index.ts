/** The ipam.metal3.io/v1alpha1 API (IPPool, IPClaim, IPAddress) and the Cluster API IPAM kinds it serves. */
export * from './cluster-api-ipam.ts';
export * from './group-version.ts';
export * from './ip-strings.ts';
export * from './ipaddress.ts';
export * from './ipclaim.ts';
export * from './ippool.ts';
export * from './well-known.ts';
export { IPAM_CRD_SOURCES } from './crd/sources.ts';
export { IPAM_CRD_DIRECTORY, ipamGeneratedFiles } from './crd/generated-files.ts';
