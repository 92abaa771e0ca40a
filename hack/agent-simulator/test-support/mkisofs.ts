import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * mkisofs (Debian's genisoimage, which hack/install-system-packages.sh installs and
 * Ironic runs) when it is on PATH: tests build real ISO images with it.
 */
export function findMkisofs(): string | undefined {
  for (const name of ['mkisofs', 'genisoimage']) {
    try {
      execFileSync(name, ['-version'], { stdio: 'ignore' });
      return name;
    } catch {
      // try the next name
    }
  }
  return undefined;
}

/** mkisofs, or a clear failure: `npm test` installs it (hack/install-system-packages.sh) before any test runs. */
export function requireMkisofs(): string {
  const found = findMkisofs();
  if (found === undefined) {
    throw new Error('mkisofs (Debian genisoimage) is not installed: run `bash hack/install-system-packages.sh`');
  }
  return found;
}

/** The arguments Ironic's create_esp_image_for_uefi passes (common/images.py). */
export const IRONIC_UEFI_ARGS = ['-r', '-V', 'VMEDIA_BOOT_ISO', '-l', '-e', 'boot/grub/efiboot.img', '-no-emul-boot'];

/** Writes `files` (paths relative to the ISO root) to a scratch tree and returns the ISO mkisofs makes of it. */
export function buildIso(mkisofs: string, files: Record<string, string | Buffer>, args: string[]): Buffer {
  const scratch = mkdtempSync(join(tmpdir(), 'agent-simulator-iso-'));
  try {
    const root = join(scratch, 'root');
    mkdirSync(root);
    for (const [path, contents] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), contents);
    }
    const output = join(scratch, 'image.iso');
    execFileSync(mkisofs, ['-quiet', ...args, '-o', output, root], { stdio: ['ignore', 'ignore', 'pipe'] });
    return readFileSync(output);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
