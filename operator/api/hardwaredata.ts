import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { hardwareDetailsSchema } from './hardware-details.ts';
import { objectMetaSchema } from './object-meta.ts';

export const HardwareDataResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'HardwareData',
  plural: 'hardwaredata',
  namespaced: true,
} as const satisfies ResourceType;

/** HardwareData has the same name and namespace as its BareMetalHost. */
export const hardwareDataSpecSchema = z.object({
  hardware: hardwareDetailsSchema.optional().describe('Hardware found by the last inspection.'),
});

export const hardwareDataSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: hardwareDataSpecSchema.prefault({}),
});

export type HardwareDataSpec = z.output<typeof hardwareDataSpecSchema>;
export type HardwareData = z.output<typeof hardwareDataSchema>;

const _isKubeObject = (data: HardwareData): KubeObject => data;
