import { z } from 'zod';
import { objectMetaSchema, rfc3339 } from '../../../operator/api/index.ts';
import type { ResourceType } from '../../../operator/runtime/index.ts';
import { IPAM_GROUP, IPAM_VERSION } from './group-version.ts';
import { addressMap, ipAddressString, ipSubnetString, prefixLength } from './ip-strings.ts';

export const IPPoolResource = {
  group: IPAM_GROUP,
  version: IPAM_VERSION,
  kind: 'IPPool',
  plural: 'ippools',
  namespaced: true,
} as const satisfies ResourceType;

export const ALLOCATION_STRATEGIES = ['sequential', 'random'] as const;
export type AllocationStrategy = (typeof ALLOCATION_STRATEGIES)[number];

/** One range of the pool: start..end, or a subnet, with settings that override the pool's defaults. */
export const poolEntrySchema = z.object({
  start: ipAddressString().optional()
    .describe('First address handed out; when unset, the address after the subnet\'s network address.'),
  end: ipAddressString().optional().describe('Last address handed out; when unset, the end of the subnet.'),
  subnet: ipSubnetString().optional().describe('Subnet the addresses must lie in, e.g. 192.168.0.0/24.'),
  prefix: prefixLength().optional().describe('Prefix length of addresses from this range; the pool\'s prefix when unset.'),
  gateway: ipAddressString().optional().describe('Gateway of addresses from this range; the pool\'s gateway when unset.'),
  dnsServers: z.array(ipAddressString()).max(64).optional()
    .describe('DNS servers of addresses from this range; the pool\'s dnsServers when unset.'),
});
export type PoolEntry = z.infer<typeof poolEntrySchema>;

export const ipPoolSpecSchema = z.object({
  clusterName: z.string().max(253).optional().describe('Name of the Cluster this pool belongs to.'),
  pools: z.array(poolEntrySchema).max(256).optional().describe('Address ranges, used in this order.'),
  allocationStrategy: z.enum(ALLOCATION_STRATEGIES).optional()
    .describe('sequential (unset) hands out the lowest free address, random any free one; ranges are used in order either way.'),
  preAllocations: addressMap().optional()
    .describe('Addresses reserved for claims by claim name; no other claim gets them.'),
  prefix: prefixLength().optional().describe('Default prefix length of the addresses.'),
  gateway: ipAddressString().optional().describe('Default gateway of the addresses.'),
  dnsServers: z.array(ipAddressString()).max(64).optional().describe('Default DNS servers of the addresses.'),
  namePrefix: z.string().min(1).max(200).describe('Prefix of the IPAddress names: <namePrefix>-<address with . and : as ->.'),
});
export type IPPoolSpec = z.infer<typeof ipPoolSpecSchema>;

export const ipPoolStatusSchema = z.object({
  lastUpdated: rfc3339().optional().describe('When the allocations last changed.'),
  indexes: addressMap().optional()
    .describe('The address held by each claim, keyed by claim name (upstream Go field Allocations).'),
});
export type IPPoolStatus = z.infer<typeof ipPoolStatusSchema>;

export const ipPoolSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: ipPoolSpecSchema,
  status: ipPoolStatusSchema.optional(),
});
export type IPPool = z.infer<typeof ipPoolSchema>;
