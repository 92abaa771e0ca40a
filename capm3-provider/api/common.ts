import { z } from 'zod';
import { conditionsSchema, rfc3339, secretReferenceSchema } from '../../operator/api/index.ts';

export { secretReferenceSchema };

/** The image a Metal3Machine's host gets (v1beta2 renames BMO's `format` to `diskFormat`). */
export const machineImageSchema = z.object({
  url: z.string().min(1).max(512).describe('Where the host fetches the image: http(s) or oci URL.'),
  checksum: z.string().max(512).optional()
    .describe('Checksum value or URL of a checksum file; not needed for live-iso or oci:// images.'),
  checksumType: z.enum(['md5', 'sha256', 'sha512']).optional().describe('Checksum algorithm; detected by Ironic when unset.'),
  diskFormat: z.enum(['raw', 'qcow2', 'vdi', 'vmdk', 'live-iso']).optional()
    .describe('Disk format; live-iso boots the ISO instead of writing it to disk.'),
});
export type MachineImage = z.infer<typeof machineImageSchema>;

export const customDeploySchema = z.object({
  method: z.string().min(1).max(512).describe('Name of the custom deploy step Ironic runs instead of writing an image.'),
});

/** The operators CAPM3 hands to Kubernetes' label selector parser, lower-cased. */
export const HOST_SELECTOR_OPERATORS = ['in', 'notin', 'exists', '!', '=', '==', '!=', 'gt', 'lt'] as const;

export const hostSelectorRequirementSchema = z.object({
  key: z.string().min(1).max(512).describe('Label key the requirement applies to.'),
  operator: z.string().describe('One of in, notin, exists, !, =, ==, !=, gt, lt (case-insensitive); gt/lt compare integers.'),
  // Required, as in CAPM3: `exists` and `!` take `values: []`.
  values: z.array(z.string().min(1).max(512)).max(512).meta({ 'x-kubernetes-list-type': 'set' })
    .describe('Values for in/notin/=/!=; exactly one integer for gt/lt; none ([]) for exists and !.'),
});
export type HostSelectorRequirement = z.infer<typeof hostSelectorRequirementSchema>;

export const hostSelectorSchema = z.object({
  matchLabels: z.record(z.string(), z.string()).optional().describe('Labels a host must carry with exactly these values.'),
  matchExpressions: z.array(hostSelectorRequirementSchema).min(1).max(512)
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'] }).optional()
    .describe('Further requirements on host labels, all of which must hold; one per key.'),
});
export type HostSelector = z.infer<typeof hostSelectorSchema>;

export const apiEndpointSchema = z.object({
  host: z.string().min(1).max(512).optional().describe('Host name or IP address of the control plane endpoint.'),
  port: z.int().min(1).max(65535).optional().meta({ format: 'int32' }).describe('Port of the control plane endpoint; 6443 when unset.'),
});
export type ApiEndpoint = z.infer<typeof apiEndpointSchema>;

export const failureDomainSchema = z.object({
  name: z.string().min(1).max(256).describe('Name of the failure domain; hosts carry it in their failure-domain label.'),
  controlPlane: z.boolean().optional().describe('Whether control plane machines may be placed in it.'),
  attributes: z.record(z.string(), z.string()).optional().describe('Free-form attributes of the failure domain.'),
});
export type FailureDomain = z.infer<typeof failureDomainSchema>;

export const objectRefSchema = z.object({
  name: z.string().min(1).max(253).optional().describe('Name of the referenced object.'),
  namespace: z.string().min(1).max(253).optional().describe('Namespace of the referenced object.'),
});

export const MACHINE_ADDRESS_TYPES = ['Hostname', 'ExternalIP', 'InternalIP', 'ExternalDNS', 'InternalDNS'] as const;
export type MachineAddressType = (typeof MACHINE_ADDRESS_TYPES)[number];
export const machineAddressSchema = z.object({
  type: z.enum(MACHINE_ADDRESS_TYPES).describe('Kind of address.'),
  address: z.string().min(1).max(256).describe('The address.'),
});
export type MachineAddress = z.infer<typeof machineAddressSchema>;

/** Cluster API v1beta1 conditions (with severity), still read under status.deprecated.v1beta1. */
export const v1beta1ConditionSchema = z.object({
  type: z.string().min(1).max(256).describe('Condition type.'),
  status: z.string().min(1).describe('True, False or Unknown.'),
  severity: z.string().max(32).optional().describe('Error, Warning or Info when the status is False.'),
  lastTransitionTime: rfc3339().describe('When the status last changed.'),
  reason: z.string().max(256).optional().describe('CamelCase reason for the last transition.'),
  message: z.string().max(10240).optional().describe('Human-readable details.'),
});

export const initializationSchema = z.object({
  provisioned: z.boolean().optional().describe('True once the infrastructure is ready; Cluster API then goes on.'),
});

export function deprecatedStatusSchema() {
  return z.object({
    v1beta1: z.object({
      conditions: z.array(v1beta1ConditionSchema).optional().describe('v1beta1-style conditions.'),
      failureReason: z.string().optional().describe('Terminal failure, for tools that still read v1beta1 fields.'),
      failureMessage: z.string().max(10240).optional().describe('Human-readable terminal failure.'),
    }).optional().describe('Fields of the v1beta1 contract.'),
  });
}

export { conditionsSchema, rfc3339 };
