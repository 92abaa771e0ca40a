import { z } from 'zod';
import { machineAddressSchema, v1beta1ConditionSchema } from '../common.ts';
import { conditionsSchema, rfc3339, secretReferenceSchema } from '../common.ts';

/** The older, still served version; conversions to and from it go through the provider's /convert webhook. */
export const V1BETA1 = 'v1beta1';

/** corev1.ObjectReference (the operator's), which v1beta1 uses where v1beta2 keeps only a name and namespace. */
export { objectReferenceSchema } from '../../../operator/api/index.ts';
export type { ObjectReference } from '../../../operator/api/index.ts';

/** v1beta1's image: the disk format is `format`, as in BMO, where v1beta2 says `diskFormat`. */
export const imageV1beta1Schema = z.object({
  url: z.string().describe('Where the host fetches the image.'),
  checksum: z.string().optional().describe('Checksum value or URL of a checksum file.'),
  checksumType: z.enum(['md5', 'sha256', 'sha512']).optional().describe('Checksum algorithm.'),
  format: z.enum(['raw', 'qcow2', 'vdi', 'vmdk', 'live-iso']).optional().describe('Disk format.'),
});

export const apiEndpointV1beta1Schema = z.object({
  host: z.string().describe('Host name or IP address of the control plane endpoint.'),
  port: z.int().describe('Port of the control plane endpoint.'),
});

/** Failure domains by name, as Cluster API v1beta1 kept them. */
export const failureDomainsV1beta1Schema = z.record(z.string(), z.object({
  controlPlane: z.boolean().optional().describe('Whether control plane machines may be placed in it.'),
  attributes: z.record(z.string(), z.string()).optional().describe('Free-form attributes of the failure domain.'),
}));
export type FailureDomainsV1beta1 = z.infer<typeof failureDomainsV1beta1Schema>;

/** The status fields of the v1beta1 contract every Cluster API v1beta1 infrastructure kind had. */
export const legacyStatusFields = {
  lastUpdated: rfc3339().optional().describe('When the status was last written.'),
  failureReason: z.string().optional().describe('Terminal failure.'),
  failureMessage: z.string().optional().describe('Human-readable terminal failure.'),
  ready: z.boolean().optional().describe('True once the infrastructure is provisioned.'),
  conditions: z.array(v1beta1ConditionSchema).optional().describe('v1beta1-style conditions.'),
  v1beta2: z.object({ conditions: conditionsSchema.optional().describe('The v1beta2 conditions.') }).optional()
    .describe('The v1beta2 conditions, during the move to v1beta2.'),
};

/** v1beta1's host selector, without v1beta2's limits (an empty matchExpressions list, long values). */
export const hostSelectorSchema = z.object({
  matchLabels: z.record(z.string(), z.string()).optional().describe('Labels a host must carry with exactly these values.'),
  matchExpressions: z.array(z.object({
    key: z.string().describe('Label key the requirement applies to.'),
    operator: z.string().describe('One of in, notin, exists, !, =, ==, !=, gt, lt (case-insensitive).'),
    values: z.array(z.string()).describe('Values the operator compares with; [] for exists and !.'),
  })).optional().describe('Further requirements on host labels, all of which must hold.'),
});

export const customDeploySchema = z.object({
  method: z.string().describe('Name of the custom deploy step Ironic runs instead of writing an image.'),
});

export { machineAddressSchema, secretReferenceSchema };
