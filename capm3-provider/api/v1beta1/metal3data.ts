import { z } from 'zod';
import { dataTemplateSchemas, indexEntrySchema } from '../metal3datatemplate.ts';
import { metal3DataStatusSchema } from '../metal3data.ts';
import { rfc3339 } from '../common.ts';
import { objectReferenceSchema, secretReferenceSchema } from './common.ts';

// The same fields with v1beta1's admission rules (fewer than v1beta2's).
const { metaDataSchema, networkDataSchema, networkLinksSchema } = dataTemplateSchemas('v1beta1');
const metaDataShape = metaDataSchema.shape;

/** v1beta1 names the pool-backed items `…FromIPPool`; v1beta2 says `…FromPool`. */
export const metaDataV1beta1Schema = metaDataSchema
  .omit({ ipAddressesFromPool: true, prefixesFromPool: true, gatewaysFromPool: true, dnsServersFromPool: true })
  .extend({
    ipAddressesFromIPPool: metaDataShape.ipAddressesFromPool,
    prefixesFromIPPool: metaDataShape.prefixesFromPool,
    gatewaysFromIPPool: metaDataShape.gatewaysFromPool,
    dnsServersFromIPPool: metaDataShape.dnsServersFromPool,
  });
export type MetaDataV1beta1 = z.infer<typeof metaDataV1beta1Schema>;

const bondSchema = networkLinksSchema.shape.bonds.unwrap().element;

/** v1beta1 keeps a bond's further parameters as a map; v1beta2 as a list of name and value. */
export const networkDataV1beta1Schema = networkDataSchema.extend({
  links: networkLinksSchema.extend({
    bonds: z.array(bondSchema.extend({
      parameters: z.record(z.string(), z.unknown()).optional().describe('Further bond parameters by name.'),
    })).optional().describe('Bonds.'),
  }).optional().describe('Ethernet links, bonds and VLANs.'),
});
export type NetworkDataV1beta1 = z.infer<typeof networkDataV1beta1Schema>;

export const metal3DataTemplateSpecV1beta1Schema = z.object({
  templateReference: z.string().optional().describe('Deprecated: names a template family; not kept in v1beta2.'),
  clusterName: z.string().optional().describe('Deprecated: the Cluster the template belongs to.'),
  metaData: metaDataV1beta1Schema.optional().describe('What the rendered meta data holds.'),
  networkData: networkDataV1beta1Schema.optional().describe('What the rendered network data holds.'),
});
export type Metal3DataTemplateSpecV1beta1 = z.infer<typeof metal3DataTemplateSpecV1beta1Schema>;

export const metal3DataTemplateStatusV1beta1Schema = z.object({
  indexes: z.record(z.string(), indexEntrySchema.shape.index).optional().describe('Index of every claim, by claim name.'),
  lastUpdated: rfc3339().optional().describe('When the status was last written.'),
});
export type Metal3DataTemplateStatusV1beta1 = z.infer<typeof metal3DataTemplateStatusV1beta1Schema>;

export const metal3DataSpecV1beta1Schema = z.object({
  index: z.int().optional().describe('Index the template gave the claim.'),
  templateReference: z.string().optional().describe('Deprecated; not kept in v1beta2.'),
  metaData: secretReferenceSchema.optional().describe('The rendered meta data Secret.'),
  networkData: secretReferenceSchema.optional().describe('The rendered network data Secret.'),
  claim: objectReferenceSchema.describe('The Metal3DataClaim this data was made for.'),
  template: objectReferenceSchema.describe('The Metal3DataTemplate it is rendered from.'),
});
export type Metal3DataSpecV1beta1 = z.infer<typeof metal3DataSpecV1beta1Schema>;

/** The status is the same in both versions. */
export const metal3DataStatusV1beta1Schema = metal3DataStatusSchema;

export const metal3DataClaimSpecV1beta1Schema = z.object({
  template: objectReferenceSchema.describe('The Metal3DataTemplate to render data from.'),
});
export type Metal3DataClaimSpecV1beta1 = z.infer<typeof metal3DataClaimSpecV1beta1Schema>;

export const metal3DataClaimStatusV1beta1Schema = z.object({
  renderedData: objectReferenceSchema.optional().describe('The Metal3Data made for this claim.'),
  errorMessage: z.string().optional().describe('Why no Metal3Data could be made.'),
});
export type Metal3DataClaimStatusV1beta1 = z.infer<typeof metal3DataClaimStatusV1beta1Schema>;
