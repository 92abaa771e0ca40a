import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeIpaIso, writeLiveOsIso } from './ipa-iso.ts';

export interface TestImage {
  /** Path below the artifacts root, e.g. `images/cirros-like.raw`. */
  path: string;
  sha256: string;
  md5: string;
  sizeBytes: number;
}

/**
 * Writes what Ironic fetches from the artifacts server: dummy deploy kernel,
 * ramdisk and ESP (the agent simulator plays the ramdisk, nothing runs them;
 * Ironic only copies them into the boot ISOs it builds for virtual media), an
 * IPA ISO made of them (a real ISO 9660 image: the simulator reads it as a
 * server's firmware would), a live OS ISO (`format: live-iso`), and three raw
 * test OS images with sha256/sha512/md5 checksum files beside them.
 */
export function writeArtifacts(root: string): { images: TestImage[] } {
  mkdirSync(join(root, 'images'), { recursive: true });
  for (const name of ['ipa.kernel', 'ipa.initramfs', 'esp.img']) {
    writeFileSync(join(root, name), `metal3-ts placeholder ${name}\n`);
  }
  const read = (name: string) => readFileSync(join(root, name));
  const isoParts = { kernel: read('ipa.kernel'), ramdisk: read('ipa.initramfs'), esp: read('esp.img') };
  writeIpaIso(join(root, 'ipa.iso'), isoParts);
  writeLiveOsIso(join(root, 'images', 'live-os.iso'), isoParts);
  // Later releases of the OS, for rolling upgrades (a new image rolls a MachineDeployment) and
  // for a second upgrade of the same control plane (in place, after a rolling one).
  const images = ['test-os.raw', 'test-os-v2.raw', 'test-os-v3.raw'].map((file) => writeImage(root, `images/${file}`, 2 * 1024 * 1024));
  return { images };
}

function writeImage(root: string, path: string, sizeBytes: number): TestImage {
  // Random content keeps format sniffers from mistaking the file for qcow2/iso/etc.
  const body = randomBytes(sizeBytes);
  const sha256 = createHash('sha256').update(body).digest('hex');
  const md5 = createHash('md5').update(body).digest('hex');
  const sha512 = createHash('sha512').update(body).digest('hex');
  const file = path.split('/').at(-1) ?? path;
  writeFileSync(join(root, path), body);
  writeFileSync(join(root, `${path}.sha256sum`), `${sha256}  ${file}\n`);
  writeFileSync(join(root, `${path}.md5sum`), `${md5}  ${file}\n`);
  writeFileSync(join(root, `${path}.sha512sum`), `${sha512}  ${file}\n`);
  return { path, sha256, md5, sizeBytes };
}
