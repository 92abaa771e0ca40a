import { PreprovisioningImageResource } from '../../api/preprovisioningimage.ts';
import type { Controller } from '../../runtime/controller.ts';
import type { Manager } from '../../runtime/manager.ts';
import { SecretResource } from '../../runtime/resources.ts';
import type { ImageProvider } from './default-image-provider.ts';
import { PreprovisioningImageReconciler } from './reconciler.ts';

export const CONTROLLER_NAME = 'preprovisioningimage';

/** Reconciles per PreprovisioningImage: any change to one (its status too, as BMO) brings a pass. */
export function setupPreprovisioningImageController(manager: Manager, options: { provider: ImageProvider; maxConcurrentReconciles: number }): Controller {
  const reconciler = new PreprovisioningImageReconciler({
    images: { client: manager.client(PreprovisioningImageResource), cache: manager.informer(PreprovisioningImageResource) },
    secrets: manager.client(SecretResource),
    provider: options.provider,
  });
  return manager
    .controller(CONTROLLER_NAME)
    .for(PreprovisioningImageResource)
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles })
    .complete(reconciler);
}
