import { HardwareDataResource, hardwareDataSpecSchema } from '../hardwaredata.ts';
import type { CrdSource } from './custom-resource-definition.ts';

/** BMO's HardwareData CRD; it has no status, so no status subresource. */
export const hardwareDataCrdSource: CrdSource = {
  group: HardwareDataResource.group,
  version: HardwareDataResource.version,
  kind: HardwareDataResource.kind,
  listKind: 'HardwareDataList',
  plural: HardwareDataResource.plural,
  singular: 'hardwaredata',
  shortNames: ['hd'],
  scope: 'Namespaced',
  description: 'Hardware inventory found by inspecting the BareMetalHost of the same name.',
  spec: hardwareDataSpecSchema,
  specDescription: 'The inspected hardware.',
  printerColumns: [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since creation' }],
};
