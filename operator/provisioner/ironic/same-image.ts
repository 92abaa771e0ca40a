// Whether Ironic's instance_info already names the image being provisioned (BMO's
// ironicHasSameImage): a deploy failure with the same image is final, with another it is retried.
import type { Node } from '../../../ironic-client/index.ts';
import type { Image } from '../../api/image.ts';
import { imageChecksum, isLiveIso, isOciImage } from '../../configdrive/index.ts';

/** Ironic returns an absent key as missing; BMO compares against Go's nil. */
const absent = (value: unknown) => value === undefined || value === null;

export function ironicHasSameImage(node: Pick<Node, 'instance_info'>, image: Image | undefined): boolean {
  const info = node.instance_info ?? {};
  const wanted = image ?? { url: '' };
  if (isLiveIso(wanted)) return info['boot_iso'] === wanted.url;
  const parsed = imageChecksum(wanted);
  const checksum = parsed.ok ? parsed.checksum : '';
  const checksumType = parsed.ok ? parsed.checksumType : '';
  if (info['image_source'] !== wanted.url) return false;
  if (isOciImage(wanted) && checksum === '') return true;
  if (checksumType === '') return info['image_checksum'] === checksum && absent(info['image_os_hash_algo']) && absent(info['image_os_hash_value']);
  return absent(info['image_checksum']) && info['image_os_hash_algo'] === checksumType && info['image_os_hash_value'] === checksum;
}
