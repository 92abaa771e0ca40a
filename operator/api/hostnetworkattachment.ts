import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { crdRequired } from './crd/markers.ts';
import { objectMetaSchema } from './object-meta.ts';

export const HostNetworkAttachmentResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'HostNetworkAttachment',
  plural: 'hostnetworkattachments',
  namespaced: true,
} as const satisfies ResourceType;

/** BMO's SwitchPortMode: one untagged VLAN (access), tagged VLANs (trunk), or both (hybrid). */
export const SWITCHPORT_MODES = ['access', 'trunk', 'hybrid'] as const;
export type SwitchportMode = (typeof SWITCHPORT_MODES)[number];

/** BMO's item pattern for allowedVLANs: one VLAN ID or a `start-end` range; the webhook checks the numbers. */
export const ALLOWED_VLAN_PATTERN = /^\d+(-\d+)?$/;

export const hostNetworkAttachmentSpecSchema = z.object({
  // Required in BMO's CRD and defaulted there too, so an omitted mode is stored as access.
  mode: crdRequired(z.enum(SWITCHPORT_MODES).default('access')).describe('Switchport mode: access, trunk or hybrid.'),
  nativeVLAN: z.int().min(1).max(4094).describe('Untagged VLAN ID of the port.'),
  allowedVLANs: z.array(z.string().regex(ALLOWED_VLAN_PATTERN)).optional()
    .describe('Tagged VLANs carried in trunk or hybrid mode: each a VLAN ID ("100") or a range ("100-200").'),
  mtu: z.int().min(68).max(9216).optional().describe('MTU of the port; the network\'s default when unset.'),
});
export type HostNetworkAttachmentSpec = z.output<typeof hostNetworkAttachmentSpecSchema>;

/** BMO's HostNetworkAttachment has a spec only (its CRD still turns the status subresource on). */
export const hostNetworkAttachmentSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  // Optional, as in BMO's CRD: an object without one is stored, and read as Go's zero spec.
  spec: hostNetworkAttachmentSpecSchema.optional(),
});
export type HostNetworkAttachment = z.output<typeof hostNetworkAttachmentSchema>;

const _isKubeObject = (attachment: HostNetworkAttachment): KubeObject => attachment;
