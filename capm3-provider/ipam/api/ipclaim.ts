import { z } from 'zod';
import { objectMetaSchema, objectReferenceSchema } from '../../../operator/api/index.ts';
import type { ResourceType } from '../../../operator/runtime/index.ts';
import { IPAM_GROUP, IPAM_VERSION } from './group-version.ts';

export const IPClaimResource = {
  group: IPAM_GROUP,
  version: IPAM_VERSION,
  kind: 'IPClaim',
  plural: 'ipclaims',
  namespaced: true,
} as const satisfies ResourceType;

export const ipClaimSpecSchema = z.object({
  pool: objectReferenceSchema.describe('The IPPool to take an address from (same namespace).'),
});
export type IPClaimSpec = z.infer<typeof ipClaimSpecSchema>;

export const ipClaimStatusSchema = z.object({
  address: objectReferenceSchema.optional().describe('The IPAddress allocated for this claim.'),
  errorMessage: z.string().max(10240).optional().describe('Why no address could be allocated.'),
});
export type IPClaimStatus = z.infer<typeof ipClaimStatusSchema>;

export const ipClaimSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: ipClaimSpecSchema,
  status: ipClaimStatusSchema.optional(),
});
export type IPClaim = z.infer<typeof ipClaimSchema>;
