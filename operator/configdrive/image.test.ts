import { describe, it, expect } from '@jest/globals';
import type { Image } from './image.ts';
import { imageChecksum, isOciImage, provisioningImageProblem } from './image.ts';

describe('imageChecksum', () => {
  it.each<[string, Image, ReturnType<typeof imageChecksum>]>([
    ['md5', { url: 'http://i/img.qcow2', checksum: 'abc', checksumType: 'md5' }, { ok: true, checksum: 'abc', checksumType: 'md5' }],
    ['sha256', { url: 'http://i/img', checksum: 'abc', checksumType: 'sha256' }, { ok: true, checksum: 'abc', checksumType: 'sha256' }],
    ['sha512', { url: 'http://i/img', checksum: 'abc', checksumType: 'sha512' }, { ok: true, checksum: 'abc', checksumType: 'sha512' }],
    ['auto', { url: 'http://i/img', checksum: 'abc', checksumType: 'auto' }, { ok: true, checksum: 'abc', checksumType: '' }],
    ['unset type', { url: 'http://i/img', checksum: 'abc' }, { ok: true, checksum: 'abc', checksumType: '' }],
    ['checksum URL', { url: 'http://i/img', checksum: 'http://i/img.sha256sum' }, { ok: true, checksum: 'http://i/img.sha256sum', checksumType: '' }],
    ['live ISO', { url: 'http://i/live.iso', format: 'live-iso' }, { ok: true, checksum: '', checksumType: '' }],
    ['OCI', { url: 'OCI://quay.io/org/img:tag' }, { ok: true, checksum: '', checksumType: '' }],
    ['missing checksum', { url: 'http://i/img' }, { ok: false, message: 'checksum is required for normal images' }],
    [
      'OCI with checksum',
      { url: 'oci://quay.io/org/img', checksum: 'abc' },
      { ok: false, message: 'spec.image.checksum must be empty for OCI images (oci:// images have embedded checksums)' },
    ],
    ['unknown type', { url: 'http://i/img', checksum: 'abc', checksumType: 'sha1' }, { ok: false, message: 'unknown checksumType sha1, supported are auto, md5, sha256, sha512' }],
  ])('%s', (_name, image, expected) => {
    expect(imageChecksum(image)).toEqual(expected);
  });

  it('detects OCI case-insensitively', () => {
    expect(isOciImage({ url: 'Oci://x' })).toBe(true);
    expect(isOciImage({ url: 'https://x' })).toBe(false);
  });
});

describe('provisioningImageProblem', () => {
  it.each<[Image | undefined, string | undefined]>([
    [undefined, undefined],
    [{ url: '' }, undefined],
    [{ url: 'http://i/img', checksum: 'abc' }, undefined],
    [{ url: 'http://i/img' }, 'Validation failed: checksum is required for normal images'],
  ])('%j', (image, expected) => {
    expect(provisioningImageProblem(image)).toBe(expected);
  });
});
