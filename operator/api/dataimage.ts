import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { objectMetaSchema } from './object-meta.ts';
import { rfc3339 } from './rfc3339.ts';

/** BMO's DataImage: an ISO attached as a virtual CD to the BareMetalHost of the same name. */
export const DataImageResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'DataImage',
  plural: 'dataimages',
  namespaced: true,
} as const satisfies ResourceType;

export const dataImageSpecSchema = z.object({
  url: z.string().describe('Where the ISO to attach to the BareMetalHost of the same name is.'),
});

export const dataImageErrorSchema = z.object({
  count: z.int().describe('Failed attach, detach or status reads since the last success.'),
  message: z.string().describe('What the last failure said.'),
});

export const dataImageStatusSchema = z.object({
  lastReconciled: rfc3339().optional().describe('When the host controller last handled the image.'),
  attachedImage: z
    .object({ url: z.string().describe('The URL the attached image came from.') })
    .optional()
    .describe('The image attached to the host, if any.'),
  error: dataImageErrorSchema.optional().describe('Failures when attaching or detaching.'),
});

export const dataImageSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: dataImageSpecSchema,
  status: dataImageStatusSchema.optional(),
});

export type DataImageSpec = z.output<typeof dataImageSpecSchema>;
export type DataImageStatus = z.output<typeof dataImageStatusSchema>;
export type DataImage = z.output<typeof dataImageSchema>;

const _isKubeObject = (image: DataImage): KubeObject => image;
