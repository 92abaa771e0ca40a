import { z } from 'zod';
import { objectMetaSchema } from '../../operator/api/index.ts';
import type { ResourceType } from '../../operator/runtime/index.ts';
import { apiEndpointSchema, conditionsSchema, deprecatedStatusSchema, failureDomainSchema, initializationSchema, rfc3339 } from './common.ts';
import { INFRASTRUCTURE_GROUP, INFRASTRUCTURE_VERSION } from './group-version.ts';

export const Metal3ClusterResource = {
  group: INFRASTRUCTURE_GROUP,
  version: INFRASTRUCTURE_VERSION,
  kind: 'Metal3Cluster',
  plural: 'metal3clusters',
  namespaced: true,
} as const satisfies ResourceType;

export const DEFAULT_CONTROL_PLANE_PORT = 6443;

export const metal3ClusterSpecSchema = z.object({
  controlPlaneEndpoint: apiEndpointSchema.optional()
    .describe('Where the workload cluster API server is reached (a VIP or load balancer you provide); host required.'),
  cloudProviderEnabled: z.boolean().optional()
    .describe('A cloud controller manager sets Node providerIDs; when false the provider sets them itself.'),
  failureDomains: z.array(failureDomainSchema).min(1).max(100).optional()
    .describe('Failure domains Machines may be spread over; hosts carry the matching failure-domain label.'),
});
export type Metal3ClusterSpec = z.infer<typeof metal3ClusterSpecSchema>;

export const metal3ClusterStatusSchema = z.object({
  conditions: conditionsSchema.optional().describe('Ready, BaremetalInfrastructureReady and Paused.'),
  lastUpdated: rfc3339().optional().describe('When the status was last written.'),
  initialization: initializationSchema.optional().describe('Cluster API contract: provisioned once the endpoint is valid.'),
  failureDomains: z.array(failureDomainSchema).min(1).max(100).optional().describe('The failure domains, copied from spec.'),
  deprecated: deprecatedStatusSchema().optional().describe('Fields kept for tools still reading the v1beta1 contract.'),
});

export const metal3ClusterSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: metal3ClusterSpecSchema.prefault({}),
  status: metal3ClusterStatusSchema.optional(),
});
export type Metal3Cluster = z.infer<typeof metal3ClusterSchema>;
