import { z } from 'zod';
import { apiEndpointV1beta1Schema, failureDomainsV1beta1Schema, legacyStatusFields } from './common.ts';

export const metal3ClusterSpecV1beta1Schema = z.object({
  controlPlaneEndpoint: apiEndpointV1beta1Schema.optional().describe('Where the workload cluster API server is reached.'),
  noCloudProvider: z.boolean().optional().describe('Deprecated: use cloudProviderEnabled.'),
  cloudProviderEnabled: z.boolean().optional().describe('A cloud controller manager sets Node providerIDs.'),
  failureDomains: failureDomainsV1beta1Schema.optional().describe('Failure domains by name.'),
});
export type Metal3ClusterSpecV1beta1 = z.infer<typeof metal3ClusterSpecV1beta1Schema>;

export const metal3ClusterStatusV1beta1Schema = z.object({
  ...legacyStatusFields,
  failureDomains: failureDomainsV1beta1Schema.optional().describe('The failure domains, copied from spec.'),
});
export type Metal3ClusterStatusV1beta1 = z.infer<typeof metal3ClusterStatusV1beta1Schema>;

export const metal3ClusterTemplateSpecV1beta1Schema = z.object({
  template: z.object({ spec: metal3ClusterSpecV1beta1Schema.describe('The Metal3Cluster spec.') }).describe('The template.'),
});
export type Metal3ClusterTemplateSpecV1beta1 = z.infer<typeof metal3ClusterTemplateSpecV1beta1Schema>;
