import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { conditionsSchema } from './conditions.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { objectMetaSchema } from './object-meta.ts';

/** BMO's PreprovisioningImage: the IPA ramdisk built (or chosen) for the BareMetalHost of the same name. */
export const PreprovisioningImageResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'PreprovisioningImage',
  plural: 'preprovisioningimages',
  namespaced: true,
} as const satisfies ResourceType;

/** BMO's PreprovisioningImageFormat values. */
export const PREPROVISIONING_IMAGE_FORMATS = ['iso', 'initrd'] as const;
export type PreprovisioningImageFormat = (typeof PREPROVISIONING_IMAGE_FORMATS)[number];

/** Condition types on a PreprovisioningImage (BMO's names). */
export const IMAGE_CONDITION_READY = 'Ready';
export const IMAGE_CONDITION_ERROR = 'Error';

export const preprovisioningImageSpecSchema = z.object({
  networkDataName: z.string().optional().describe('A Secret in this namespace with network data to build into the image.'),
  architecture: z.string().optional().describe('The processor architecture to build the image for.'),
  acceptFormats: z.array(z.enum(PREPROVISIONING_IMAGE_FORMATS)).optional().describe('The image formats the host can boot, preferred first.'),
});

export const secretStatusSchema = z.object({
  name: z.string().optional().describe('The Secret\'s name.'),
  version: z.string().optional().describe('The Secret\'s resourceVersion the image was built with.'),
});

export const preprovisioningImageStatusSchema = z.object({
  imageUrl: z.string().optional().describe('Where the image can be downloaded.'),
  kernelUrl: z.string().optional().describe('For initrd images: where the kernel to boot it with can be downloaded.'),
  extraKernelParams: z.string().optional().describe('For initrd images: extra kernel parameters for a network boot.'),
  format: z.enum(PREPROVISIONING_IMAGE_FORMATS).optional().describe('The format of the image at imageUrl: iso or initrd.'),
  networkData: secretStatusSchema.optional().describe('The version of the network data Secret the image was built with.'),
  architecture: z.string().optional().describe('The processor architecture the image is built for.'),
  conditions: conditionsSchema.optional().describe('Ready and Error.'),
});

export const preprovisioningImageSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: preprovisioningImageSpecSchema.prefault({}),
  status: preprovisioningImageStatusSchema.optional(),
});

export type PreprovisioningImageSpec = z.output<typeof preprovisioningImageSpecSchema>;
export type PreprovisioningImageStatus = z.output<typeof preprovisioningImageStatusSchema>;
export type PreprovisioningImageObject = z.output<typeof preprovisioningImageSchema>;

const _isKubeObject = (image: PreprovisioningImageObject): KubeObject => image;
