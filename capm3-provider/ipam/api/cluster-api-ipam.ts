import { z } from 'zod';
import { conditionsSchema, objectMetaSchema } from '../../../operator/api/index.ts';
import type { ResourceType } from '../../../operator/runtime/index.ts';

/**
 * Cluster API's IPAM contract (`ipam.cluster.x-k8s.io`), at v1beta2: the storage version of the
 * CRDs Cluster API v1.14 installs (v1alpha1 and v1beta1 are still served, v1beta1 deprecated).
 */
export const CLUSTER_API_IPAM_GROUP = 'ipam.cluster.x-k8s.io';
export const CLUSTER_API_IPAM_VERSION = 'v1beta2';
export const CLUSTER_API_IPAM_API_VERSION = `${CLUSTER_API_IPAM_GROUP}/${CLUSTER_API_IPAM_VERSION}`;

export const IPAddressClaimResource = {
  group: CLUSTER_API_IPAM_GROUP,
  version: CLUSTER_API_IPAM_VERSION,
  kind: 'IPAddressClaim',
  plural: 'ipaddressclaims',
  namespaced: true,
} as const satisfies ResourceType;

export const ClusterApiIPAddressResource = {
  group: CLUSTER_API_IPAM_GROUP,
  version: CLUSTER_API_IPAM_VERSION,
  kind: 'IPAddress',
  plural: 'ipaddresses',
  namespaced: true,
} as const satisfies ResourceType;

export const poolReferenceSchema = z.looseObject({
  name: z.string().optional(),
  kind: z.string().optional(),
  apiGroup: z.string().optional(),
});
export type PoolReference = z.infer<typeof poolReferenceSchema>;

/** The parts of an IPAddressClaim we read and write; everything else is kept as is. */
export const ipAddressClaimSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: z.looseObject({
    clusterName: z.string().optional(),
    poolRef: poolReferenceSchema.prefault({}),
  }).prefault({}),
  status: z.looseObject({
    conditions: conditionsSchema.optional(),
    addressRef: z.looseObject({ name: z.string().optional() }).optional(),
  }).optional(),
});
export type IPAddressClaim = z.infer<typeof ipAddressClaimSchema>;

/** A Cluster API IPAddress (v1beta2 requires address, claimRef, poolRef and prefix; gateway may not be empty). */
export const clusterApiIPAddressSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: z.looseObject({
    address: z.string(),
    claimRef: z.looseObject({ name: z.string() }),
    poolRef: poolReferenceSchema,
    prefix: z.int(),
    gateway: z.string().optional(),
  }),
});
export type ClusterApiIPAddress = z.infer<typeof clusterApiIPAddressSchema>;
