import { z } from 'zod';
import { objectMetaSchema } from '../../operator/api/index.ts';
import type { ResourceType } from '../../operator/runtime/index.ts';
import { objectRefSchema, secretReferenceSchema } from './common.ts';
import { INFRASTRUCTURE_GROUP, INFRASTRUCTURE_VERSION } from './group-version.ts';

export const Metal3DataResource = {
  group: INFRASTRUCTURE_GROUP,
  version: INFRASTRUCTURE_VERSION,
  kind: 'Metal3Data',
  plural: 'metal3datas',
  namespaced: true,
} as const satisfies ResourceType;

export const metal3DataSpecSchema = z.object({
  index: z.int().min(0).optional().meta({ format: 'int32' }).describe('Index the template gave the claim.'),
  metaData: secretReferenceSchema.optional().describe('The rendered meta data Secret.'),
  networkData: secretReferenceSchema.optional().describe('The rendered network data Secret.'),
  claim: objectRefSchema.optional().describe('The Metal3DataClaim this data was made for.'),
  template: objectRefSchema.optional().describe('The Metal3DataTemplate it is rendered from.'),
});

export const metal3DataStatusSchema = z.object({
  ready: z.boolean().optional().describe('True once the Secrets are rendered.'),
  errorMessage: z.string().optional().describe('Why the Secrets cannot be rendered.'),
});

export const metal3DataSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: metal3DataSpecSchema.prefault({}),
  status: metal3DataStatusSchema.optional(),
});
export type Metal3Data = z.infer<typeof metal3DataSchema>;
