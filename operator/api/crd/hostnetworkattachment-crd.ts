import { HostNetworkAttachmentResource, hostNetworkAttachmentSpecSchema } from '../hostnetworkattachment.ts';
import type { CrdSource } from './custom-resource-definition.ts';

/** BMO's HostNetworkAttachment: switch port settings that BareMetalHost network interfaces refer to. */
export const hostNetworkAttachmentCrdSource: CrdSource = {
  group: HostNetworkAttachmentResource.group,
  version: HostNetworkAttachmentResource.version,
  kind: HostNetworkAttachmentResource.kind,
  listKind: 'HostNetworkAttachmentList',
  plural: HostNetworkAttachmentResource.plural,
  singular: 'hostnetworkattachment',
  scope: 'Namespaced',
  description: 'Switch port settings for BareMetalHost network interfaces; the spec may change only while no host refers to it.',
  spec: hostNetworkAttachmentSpecSchema,
  specDescription: 'The switch port configuration.',
  // BMO's type has no status field, yet its CRD marker turns the status subresource on.
  statusSubresource: true,
  printerColumns: [
    { name: 'Mode', type: 'string', jsonPath: '.spec.mode', description: 'Switchport mode' },
    { name: 'Native VLAN', type: 'integer', jsonPath: '.spec.nativeVLAN', description: 'Native VLAN ID' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since creation' },
  ],
};
