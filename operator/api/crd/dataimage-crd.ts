import { DataImageResource, dataImageSpecSchema, dataImageStatusSchema } from '../dataimage.ts';
import type { CrdSource } from './custom-resource-definition.ts';

/**
 * BMO's DataImage. BMO declares no columns for it; these answer what a user asks: which image,
 * is it attached, is it failing and why.
 */
export const dataImageCrdSource: CrdSource = {
  group: DataImageResource.group,
  version: DataImageResource.version,
  kind: DataImageResource.kind,
  listKind: 'DataImageList',
  plural: DataImageResource.plural,
  singular: 'dataimage',
  scope: 'Namespaced',
  description: 'An ISO attached as a virtual CD to the provisioned BareMetalHost of the same name when it is next powered on.',
  spec: dataImageSpecSchema,
  specDescription: 'The image to attach.',
  status: dataImageStatusSchema,
  statusDescription: 'What is attached and how the last attempts went.',
  printerColumns: [
    { name: 'URL', type: 'string', jsonPath: '.spec.url', description: 'The image wanted' },
    { name: 'Attached', type: 'string', jsonPath: '.status.attachedImage.url', description: 'The image attached to the host' },
    { name: 'Errors', type: 'integer', jsonPath: '.status.error.count', description: 'Failures since the last success' },
    { name: 'Error', type: 'string', jsonPath: '.status.error.message', description: 'The last failure', priority: 1 },
    { name: 'Reconciled', type: 'date', jsonPath: '.status.lastReconciled', description: 'When the host controller last handled it' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since creation' },
  ],
};
