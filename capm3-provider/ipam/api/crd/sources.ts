import type { CrdSource, PrinterColumn } from '../../../../operator/api/index.ts';
import { IPAddressResource, ipAddressSpecSchema } from '../ipaddress.ts';
import { IPClaimResource, ipClaimSpecSchema, ipClaimStatusSchema } from '../ipclaim.ts';
import { IPPoolResource, ipPoolSpecSchema, ipPoolStatusSchema } from '../ippool.ts';

const age: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since creation' };

/** Upstream's short names: the bare kind, then m3- and metal3- prefixed forms. */
function shortNames(short: string, singular: string): string[] {
  return [short, singular, `m3${short}`, `m3${singular}`, `m3${singular}s`, `metal3${short}`, `metal3${singular}`, `metal3${singular}s`];
}

export const ipPoolCrdSource: CrdSource = {
  group: IPPoolResource.group,
  version: IPPoolResource.version,
  kind: IPPoolResource.kind,
  listKind: 'IPPoolList',
  plural: IPPoolResource.plural,
  singular: 'ippool',
  shortNames: shortNames('ipp', 'ippool'),
  categories: ['cluster-api'],
  scope: 'Namespaced',
  description: 'A pool of IP addresses that IPClaims and Cluster API IPAddressClaims take addresses from.',
  spec: ipPoolSpecSchema,
  specDescription: 'The address ranges and the network settings handed out with them.',
  status: ipPoolStatusSchema,
  statusDescription: 'The current allocations, written by the IPAM controller.',
  printerColumns: [
    { name: 'Cluster', type: 'string', jsonPath: '.metadata.labels.cluster\\.x-k8s\\.io/cluster-name', description: 'Cluster it belongs to' },
    age,
  ],
};

export const ipClaimCrdSource: CrdSource = {
  group: IPClaimResource.group,
  version: IPClaimResource.version,
  kind: IPClaimResource.kind,
  listKind: 'IPClaimList',
  plural: IPClaimResource.plural,
  singular: 'ipclaim',
  shortNames: shortNames('ipc', 'ipclaim'),
  categories: ['cluster-api'],
  scope: 'Namespaced',
  description: 'A request for one address from an IPPool.',
  spec: ipClaimSpecSchema,
  specDescription: 'The pool to take the address from.',
  status: ipClaimStatusSchema,
  statusDescription: 'The allocated IPAddress or why there is none.',
  printerColumns: [age],
};

export const ipAddressCrdSource: CrdSource = {
  group: IPAddressResource.group,
  version: IPAddressResource.version,
  kind: IPAddressResource.kind,
  listKind: 'IPAddressList',
  plural: IPAddressResource.plural,
  singular: 'ipaddress',
  shortNames: shortNames('ipa', 'ipaddress').map((name) => name.replace(/ipaddresss$/, 'ipaddresses')),
  categories: ['metal3'],
  scope: 'Namespaced',
  description: 'One address allocated from an IPPool to an IPClaim.',
  spec: ipAddressSpecSchema,
  specDescription: 'The address and its network settings.',
  printerColumns: [age],
};

export const IPAM_CRD_SOURCES: readonly CrdSource[] = [ipAddressCrdSource, ipClaimCrdSource, ipPoolCrdSource];
