import { z } from 'zod';
import { objectMetaSchema } from '../../operator/api/index.ts';
import type { ResourceType } from '../../operator/runtime/index.ts';
import { objectRefSchema } from './common.ts';
import { INFRASTRUCTURE_GROUP, INFRASTRUCTURE_VERSION } from './group-version.ts';

export const Metal3DataClaimResource = {
  group: INFRASTRUCTURE_GROUP,
  version: INFRASTRUCTURE_VERSION,
  kind: 'Metal3DataClaim',
  plural: 'metal3dataclaims',
  namespaced: true,
} as const satisfies ResourceType;

export const metal3DataClaimSpecSchema = z.object({
  template: objectRefSchema.describe('The Metal3DataTemplate to render data from.'),
});

export const metal3DataClaimStatusSchema = z.object({
  renderedData: objectRefSchema.optional().describe('The Metal3Data made for this claim.'),
  errorMessage: z.string().optional().describe('Why no Metal3Data could be made.'),
});

export const metal3DataClaimSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: metal3DataClaimSpecSchema,
  status: metal3DataClaimStatusSchema.optional(),
});
export type Metal3DataClaim = z.infer<typeof metal3DataClaimSchema>;
