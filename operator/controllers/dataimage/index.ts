/** The DataImage controller: owner, finalizer, and letting go once the image is detached. */
export { CONTROLLER_NAME, EVENT_SOURCE, setupDataImageController } from './controller.ts';
export { DATA_IMAGE_DELAYS, DataImageReconciler } from './reconciler.ts';
