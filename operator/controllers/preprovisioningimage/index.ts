/** The PreprovisioningImage controller and BMO's default image provider (the DEPLOY_* images). */
export { CONTROLLER_NAME, setupPreprovisioningImageController } from './controller.ts';
export { canProvideImages, defaultImageProvider } from './default-image-provider.ts';
export type { GeneratedImage, ImageProvider } from './default-image-provider.ts';
export { IMAGE_DELAYS, IMAGE_REASONS, PreprovisioningImageReconciler } from './reconciler.ts';
