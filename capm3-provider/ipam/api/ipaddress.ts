import { z } from 'zod';
import { objectMetaSchema, objectReferenceSchema } from '../../../operator/api/index.ts';
import type { ResourceType } from '../../../operator/runtime/index.ts';
import { IPAM_GROUP, IPAM_VERSION } from './group-version.ts';
import { ipAddressString, prefixLength } from './ip-strings.ts';

export const IPAddressResource = {
  group: IPAM_GROUP,
  version: IPAM_VERSION,
  kind: 'IPAddress',
  plural: 'ipaddresses',
  namespaced: true,
} as const satisfies ResourceType;

/** One allocated address; its name (`<namePrefix>-<address>`) is what makes the allocation unique. */
export const ipAddressSpecSchema = z.object({
  claim: objectReferenceSchema.describe('The IPClaim this address was allocated for.'),
  pool: objectReferenceSchema.describe('The IPPool it was allocated from.'),
  address: ipAddressString().describe('The IP address.'),
  prefix: prefixLength().optional().describe('Prefix length of the network.'),
  gateway: ipAddressString().optional().describe('Gateway of the network.'),
  dnsServers: z.array(ipAddressString()).max(64).optional().describe('DNS servers of the network.'),
});
export type IPAddressSpec = z.infer<typeof ipAddressSpecSchema>;

export const ipAddressSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: ipAddressSpecSchema,
});
export type IPAddress = z.infer<typeof ipAddressSchema>;
