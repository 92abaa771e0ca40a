import { createHash } from 'node:crypto';
import { readBootCatalog, type BootPlatform } from './el-torito.ts';
import { parseGrubConfig, type BootLoaderEntry } from './grub-config.ts';
import { Iso9660Image, IsoFormatError } from './iso9660.ts';
import { parseIsolinuxConfig } from './isolinux-config.ts';
import { parseKernelCommandLine, type KernelCommandLine } from './kernel-cmdline.ts';

/** What the firmware and the boot loader on a CD would start. */
export interface CdBoot {
  volumeId: string;
  platform: BootPlatform;
  /** The boot loader configuration read, e.g. /EFI/BOOT/grub.cfg. */
  configPath: string;
  entry: BootLoaderEntry;
  commandLine: KernelCommandLine;
  /** sha256 of the kernel and initramfs files the entry loads, as read from the CD. */
  kernelSha256: string | null;
  initrdSha256: string | null;
}

/** The CD cannot start anything on this server; a real one would stop in its firmware. */
export class NotBootableError extends Error {
  override readonly name = 'NotBootableError';
}

/** Where GRUB builds (Ironic's [DEFAULT]grub_config_path, distribution ESPs) look first. */
const GRUB_CONFIG_PATHS = ['/EFI/BOOT/grub.cfg', '/boot/grub/grub.cfg'];
const ISOLINUX_CONFIG_PATHS = ['/isolinux/isolinux.cfg', '/isolinux.cfg', '/syslinux/syslinux.cfg'];

/**
 * Boots a CD image the way the server's firmware would: through the El Torito entry
 * for its platform (EFI for UEFI firmware, x86 for BIOS), then the boot loader's
 * configuration file, whose default entry names the kernel and its command line.
 * The boot loader binaries themselves are not run: Ironic only copies them.
 */
export function bootFromCd(bytes: Uint8Array, bootMode: 'uefi' | 'bios'): CdBoot {
  try {
    return boot(new Iso9660Image(bytes), bootMode);
  } catch (error) {
    if (error instanceof IsoFormatError) throw new NotBootableError(`the CD is not readable: ${error.message}`);
    throw error;
  }
}

function boot(image: Iso9660Image, bootMode: 'uefi' | 'bios'): CdBoot {
  const platform: BootPlatform = bootMode === 'uefi' ? 'efi' : 'x86';
  const catalog = readBootCatalog(image);
  if (!catalog.some((entry) => entry.platform === platform && entry.bootable)) {
    const found = catalog.map((entry) => entry.platform).join(', ') || 'no El Torito boot catalog';
    throw new NotBootableError(`the CD has no bootable ${platform} El Torito entry for ${bootMode} firmware (found: ${found})`);
  }
  const located =
    bootMode === 'uefi'
      ? findConfig(image, GRUB_CONFIG_PATHS, 'grub.cfg')
      : findConfig(image, ISOLINUX_CONFIG_PATHS, 'isolinux.cfg');
  if (located === undefined) throw new NotBootableError(`the CD has no boot loader configuration for ${bootMode} firmware`);
  const text = located.contents.toString('utf8');
  const entry = bootMode === 'uefi' ? parseGrubConfig(text) : parseIsolinuxConfig(text);
  if (entry === undefined) throw new NotBootableError(`${located.path} starts no kernel`);
  return {
    volumeId: image.volumeId,
    platform,
    configPath: located.path,
    entry,
    commandLine: parseKernelCommandLine(entry.commandLine),
    kernelSha256: fileSha256(image, entry.kernel),
    initrdSha256: entry.initrd === undefined ? null : fileSha256(image, entry.initrd),
  };
}

function fileSha256(image: Iso9660Image, path: string): string | null {
  const contents = image.readFile(path);
  return contents === undefined ? null : createHash('sha256').update(contents).digest('hex');
}

function findConfig(image: Iso9660Image, preferred: string[], fileName: string): { path: string; contents: Buffer } | undefined {
  for (const path of preferred) {
    const contents = image.readFile(path);
    if (contents !== undefined) return { path, contents };
  }
  // Distribution boot loaders look elsewhere (EFI/centos/grub.cfg...); Ironic writes it where configured.
  const path = image.filePaths().find((candidate) => candidate.toLowerCase().endsWith(`/${fileName}`));
  const contents = path === undefined ? undefined : image.readFile(path);
  return path === undefined || contents === undefined ? undefined : { path, contents };
}
