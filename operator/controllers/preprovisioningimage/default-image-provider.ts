// BMO's default image provider (pkg/imageprovider/default.go): no image is built; the
// PreprovisioningImage gets the IPA images the operator is configured with, per architecture
// where the environment names one.
import type { PreprovisioningImageFormat } from '../../api/preprovisioningimage.ts';
import { ConfigError } from '../../runtime/index.ts';

/** What an image provider hands back for a PreprovisioningImage (BMO's GeneratedImage). */
export interface GeneratedImage {
  imageUrl: string;
  kernelUrl?: string;
  extraKernelParams?: string;
}

/** BMO's ImageProvider, without DiscardImage (nothing is ever built here, so nothing to discard). */
export interface ImageProvider {
  supportsArchitecture(architecture: string): boolean;
  supportsFormat(format: PreprovisioningImageFormat): boolean;
  buildImage(request: { format: PreprovisioningImageFormat; architecture: string }): GeneratedImage;
}

type Base = 'DEPLOY_ISO_URL' | 'DEPLOY_KERNEL_URL' | 'DEPLOY_RAMDISK_URL';
const BASES: readonly Base[] = ['DEPLOY_ISO_URL', 'DEPLOY_KERNEL_URL', 'DEPLOY_RAMDISK_URL'];
const HTTP_URL = /^https?:\/\/[^/]/;

/** `DEPLOY_KERNEL_BY_ARCH=x86_64:http://…,aarch64:http://…` as ironic-image spells it. */
function parseByArch(name: string, value: string, problems: string[]): Map<string, string> {
  const urls = new Map<string, string>();
  for (const entry of value.split(',').filter(Boolean)) {
    const colon = entry.indexOf(':');
    const arch = colon > 0 ? entry.slice(0, colon).toLowerCase() : '';
    const url = colon > 0 ? entry.slice(colon + 1) : '';
    if (!arch || !HTTP_URL.test(url)) problems.push(`invalid setting ${name}: "${entry}" is not <arch>:<http(s) URL>`);
    else urls.set(arch, url);
  }
  return urls;
}

/**
 * Reads the DEPLOY_* variables once. For each image, BMO's order: DEPLOY_<IMAGE>_URL_<ARCH>
 * (architecture in capitals), then DEPLOY_<IMAGE>_BY_ARCH, then DEPLOY_<IMAGE>_URL. Throws
 * ConfigError naming each malformed variable.
 */
export function defaultImageProvider(env: Record<string, string | undefined>): ImageProvider {
  const problems: string[] = [];
  const perArch = new Map<Base, Map<string, string>>();
  for (const base of BASES) {
    const urls = new Map<string, string>();
    const byArchName = `${base.replace(/_URL$/, '')}_BY_ARCH`;
    const byArch = env[byArchName];
    if (byArch) for (const [arch, url] of parseByArch(byArchName, byArch, problems)) urls.set(arch, url);
    // Per-architecture variables win over the BY_ARCH list.
    for (const [name, value] of Object.entries(env)) {
      if (!name.startsWith(`${base}_`) || !value) continue;
      if (!HTTP_URL.test(value)) problems.push(`invalid setting ${name}: must be an http:// or https:// URL`);
      else urls.set(name.slice(base.length + 1).toLowerCase(), value);
    }
    perArch.set(base, urls);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const base = (name: Base) => env[name] ?? '';
  const lookup = (name: Base, architecture: string) => (architecture ? perArch.get(name)?.get(architecture.toLowerCase()) : undefined) ?? base(name);
  return {
    supportsArchitecture: () => true,
    supportsFormat: (format) => {
      if (format === 'iso') return base('DEPLOY_ISO_URL') !== '';
      // Without a kernel the host controller could not boot an initrd (BMO's reasoning).
      return base('DEPLOY_KERNEL_URL') !== '' && base('DEPLOY_RAMDISK_URL') !== '';
    },
    buildImage: ({ format, architecture }) =>
      format === 'iso'
        ? { imageUrl: lookup('DEPLOY_ISO_URL', architecture) }
        : { imageUrl: lookup('DEPLOY_RAMDISK_URL', architecture), kernelUrl: lookup('DEPLOY_KERNEL_URL', architecture) },
  };
}

/** BMO's CanStart: the controller runs only when the provider can give some format. */
export function canProvideImages(provider: ImageProvider): boolean {
  return provider.supportsFormat('iso') || provider.supportsFormat('initrd');
}
