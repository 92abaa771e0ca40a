import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestImage {
  /** Path below the artifacts root, e.g. `images/cirros-like.raw`. */
  path: string;
  sha256: string;
  md5: string;
  sizeBytes: number;
}

/**
 * Writes what Ironic fetches from the artifacts server: dummy deploy kernel,
 * ramdisk, ESP and ISO (the agent simulator plays the ramdisk, nothing boots
 * them) and a raw test OS image with sha256/md5 checksum files beside it.
 */
export function writeArtifacts(root: string): { images: TestImage[] } {
  mkdirSync(join(root, 'images'), { recursive: true });
  for (const name of ['ipa.kernel', 'ipa.initramfs', 'esp.img', 'ipa.iso']) {
    writeFileSync(join(root, name), `metal3-ts placeholder ${name}\n`);
  }
  const images = [writeImage(root, 'images/test-os.raw', 2 * 1024 * 1024)];
  return { images };
}

function writeImage(root: string, path: string, sizeBytes: number): TestImage {
  // Random content keeps format sniffers from mistaking the file for qcow2/iso/etc.
  const body = randomBytes(sizeBytes);
  const sha256 = createHash('sha256').update(body).digest('hex');
  const md5 = createHash('md5').update(body).digest('hex');
  const file = path.split('/').at(-1) ?? path;
  writeFileSync(join(root, path), body);
  writeFileSync(join(root, `${path}.sha256sum`), `${sha256}  ${file}\n`);
  writeFileSync(join(root, `${path}.md5sum`), `${md5}  ${file}\n`);
  return { path, sha256, md5, sizeBytes };
}
