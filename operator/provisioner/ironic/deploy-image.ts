// driver_info keys telling Ironic which IPA ramdisk to boot (BMO's setDeployImage): a host's
// PreprovisioningImage when it has one, otherwise the provisioner's configured images.
import type { PreprovisioningImage } from '../provisioner.ts';
import type { DesiredValues } from './node-patch.ts';

export interface DeployImageSources {
  kernelUrl: string;
  ramdiskUrl: string;
  isoUrl: string;
}

const CLEARED = { deploy_kernel: null, deploy_ramdisk: null, deploy_iso: null, kernel_append_params: null };

/** Keys to set (null: remove), or undefined when no image is known and driver_info stays as is. */
export function deployImageInfo(options: {
  configured: DeployImageSources;
  /** The BMC boots ISOs over virtual media. */
  allowIso: boolean;
  preprovisioningImage?: PreprovisioningImage | undefined;
  /** BMO's havePreprovImgBuilder: hosts wait for their PreprovisioningImage instead of using the configured images. */
  imageBuilder?: boolean;
}): DesiredValues | undefined {
  const { configured, allowIso } = options;
  const image = options.preprovisioningImage;
  if (image?.format === 'iso' && allowIso) return { ...CLEARED, deploy_iso: image.imageUrl };
  if (image?.format === 'initrd') {
    const kernel = image.kernelUrl || configured.kernelUrl;
    if (!kernel) return undefined;
    return {
      ...CLEARED,
      deploy_kernel: kernel,
      deploy_ramdisk: image.imageUrl,
      // %default% keeps the parameters ironic-image configures.
      ...(image.extraKernelParams ? { kernel_append_params: `%default% ${image.extraKernelParams}` } : {}),
    };
  }
  if (options.imageBuilder) return undefined;
  if (allowIso && configured.isoUrl) return { ...CLEARED, deploy_iso: configured.isoUrl };
  if (configured.kernelUrl && configured.ramdiskUrl) {
    return { ...CLEARED, deploy_kernel: configured.kernelUrl, deploy_ramdisk: configured.ramdiskUrl };
  }
  return undefined;
}

/** Only the keys that are set, for a new node or a replaced driver_info. */
export function presentKeys(values: DesiredValues | undefined): DesiredValues {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== null && value !== undefined));
}
