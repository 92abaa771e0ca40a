import { PreprovisioningImageResource, preprovisioningImageSpecSchema, preprovisioningImageStatusSchema } from '../preprovisioningimage.ts';
import type { CrdSource } from './custom-resource-definition.ts';

/** BMO's PreprovisioningImage, short name `ppimg`, with BMO's Ready and Reason columns. */
export const preprovisioningImageCrdSource: CrdSource = {
  group: PreprovisioningImageResource.group,
  version: PreprovisioningImageResource.version,
  kind: PreprovisioningImageResource.kind,
  listKind: 'PreprovisioningImageList',
  plural: PreprovisioningImageResource.plural,
  singular: 'preprovisioningimage',
  shortNames: ['ppimg'],
  scope: 'Namespaced',
  description: 'The IPA ramdisk image for the BareMetalHost of the same name, built or chosen by an image provider.',
  spec: preprovisioningImageSpecSchema,
  specDescription: 'What the host can boot.',
  status: preprovisioningImageStatusSchema,
  statusDescription: 'The image an image provider made available.',
  printerColumns: [
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type==\'Ready\')].status', description: 'Whether the image is ready' },
    { name: 'Reason', type: 'string', jsonPath: '.status.conditions[?(@.type==\'Ready\')].reason', description: 'The reason for the image readiness status' },
    { name: 'Format', type: 'string', jsonPath: '.status.format', description: 'The format of the image', priority: 1 },
    { name: 'Image', type: 'string', jsonPath: '.status.imageUrl', description: 'Where the image is', priority: 1 },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since creation' },
  ],
};
