import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../runtime/index.ts';
import { canProvideImages, defaultImageProvider } from './default-image-provider.ts';

const A = 'http://127.0.0.1:8080';

describe('the default image provider (DEPLOY_*)', () => {
  it('offers an ISO with DEPLOY_ISO_URL, an initrd only with both DEPLOY_KERNEL_URL and DEPLOY_RAMDISK_URL', () => {
    const iso = defaultImageProvider({ DEPLOY_ISO_URL: `${A}/ipa.iso` });
    expect([iso.supportsFormat('iso'), iso.supportsFormat('initrd'), canProvideImages(iso)]).toEqual([true, false, true]);
    const kernelOnly = defaultImageProvider({ DEPLOY_KERNEL_URL: `${A}/k` });
    expect([kernelOnly.supportsFormat('initrd'), canProvideImages(kernelOnly)]).toEqual([false, false]);
    const initrd = defaultImageProvider({ DEPLOY_KERNEL_URL: `${A}/k`, DEPLOY_RAMDISK_URL: `${A}/r`, DEPLOY_ISO_URL: '' });
    expect([initrd.supportsFormat('iso'), initrd.supportsFormat('initrd')]).toEqual([false, true]);
    expect(initrd.buildImage({ format: 'initrd', architecture: 'x86_64' })).toEqual({ imageUrl: `${A}/r`, kernelUrl: `${A}/k` });
  });

  it('takes DEPLOY_*_URL_<ARCH> first, then DEPLOY_*_BY_ARCH, then the plain variable', () => {
    const provider = defaultImageProvider({
      DEPLOY_KERNEL_URL: `${A}/k`, DEPLOY_RAMDISK_URL: `${A}/r`, DEPLOY_ISO_URL: `${A}/iso`,
      DEPLOY_KERNEL_URL_AARCH64: `${A}/k-arm`, DEPLOY_KERNEL_BY_ARCH: `aarch64:${A}/k-arm-list,x86_64:${A}/k-x86`,
      DEPLOY_RAMDISK_BY_ARCH: `AArch64:${A}/r-arm`, DEPLOY_ISO_URL_AARCH64: `${A}/iso-arm`,
    });
    expect(provider.buildImage({ format: 'initrd', architecture: 'aarch64' })).toEqual({ kernelUrl: `${A}/k-arm`, imageUrl: `${A}/r-arm` });
    expect(provider.buildImage({ format: 'initrd', architecture: 'x86_64' })).toEqual({ kernelUrl: `${A}/k-x86`, imageUrl: `${A}/r` });
    expect(provider.buildImage({ format: 'iso', architecture: 'aarch64' })).toEqual({ imageUrl: `${A}/iso-arm` });
    expect(provider.buildImage({ format: 'iso', architecture: '' })).toEqual({ imageUrl: `${A}/iso` });
  });

  it('refuses malformed per-architecture variables, naming each', () => {
    const build = () => defaultImageProvider({ DEPLOY_KERNEL_BY_ARCH: 'x86_64', DEPLOY_RAMDISK_URL_X86_64: 'ftp://x/r' });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/DEPLOY_KERNEL_BY_ARCH: "x86_64" is not <arch>:<http\(s\) URL>/);
    expect(build).toThrow(/DEPLOY_RAMDISK_URL_X86_64: must be an http:\/\/ or https:\/\/ URL/);
  });
});
