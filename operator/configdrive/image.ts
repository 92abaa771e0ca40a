/** BMO's `spec.image`, JSON field names. */
export interface Image {
  url: string;
  checksum?: string | undefined;
  checksumType?: string | undefined;
  format?: string | undefined;
  ociAuthSecretName?: string | undefined;
}

export function isLiveIso(image: Image | undefined): boolean {
  return image?.format === 'live-iso';
}

/** Case-insensitive, as in BMO. */
export function isOciImage(image: Image | undefined): boolean {
  return image !== undefined && image.url.toLowerCase().startsWith('oci://');
}

export type ImageChecksumResult = { ok: true; checksum: string; checksumType: string } | { ok: false; message: string };

const EXPLICIT_TYPES = new Set(['md5', 'sha256', 'sha512']);

/**
 * BMO's `Image.GetChecksum`. An empty `checksumType` means Ironic detects the algorithm
 * (`auto` and unset both give ''). OCI images and live ISOs carry no checksum. The checksum
 * may be a value or the URL of a checksum file; Ironic accepts both in the same fields.
 */
export function imageChecksum(image: Image): ImageChecksumResult {
  const checksum = image.checksum ?? '';
  if (isOciImage(image)) {
    if (checksum !== '') {
      return { ok: false, message: 'spec.image.checksum must be empty for OCI images (oci:// images have embedded checksums)' };
    }
    return { ok: true, checksum: '', checksumType: '' };
  }
  if (isLiveIso(image)) return { ok: true, checksum: '', checksumType: '' };
  if (checksum === '') return { ok: false, message: 'checksum is required for normal images' };
  const type = image.checksumType ?? '';
  if (EXPLICIT_TYPES.has(type)) return { ok: true, checksum, checksumType: type };
  if (type === '' || type === 'auto') return { ok: true, checksum, checksumType: '' };
  return { ok: false, message: `unknown checksumType ${type}, supported are auto, md5, sha256, sha512` };
}

/** BMO's `validateProvisionData`, with the "Validation failed: " prefix it records. */
export function provisioningImageProblem(image: Image | undefined): string | undefined {
  if (image === undefined || image.url === '') return undefined;
  const checksum = imageChecksum(image);
  return checksum.ok ? undefined : `Validation failed: ${checksum.message}`;
}
