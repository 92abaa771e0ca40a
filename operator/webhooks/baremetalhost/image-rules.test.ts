import { describe, expect, it } from '@jest/globals';
import { urlProblem } from '../url-problem.ts';
import { messagesFor, testHost } from './test-host.ts';

const withImage = (image: { url: string; checksum?: string; checksumType?: 'md5' | 'auto'; format?: 'live-iso' | 'raw' }) => testHost({ spec: { image } });

describe('image rules', () => {
  it('accepts http(s), ftp and oci images with what they need', () => {
    expect(messagesFor(withImage({ url: 'http://127.0.0.1/i.img', checksum: 'http://127.0.0.1/i.img.sha256sum' }))).toEqual([]);
    expect(messagesFor(withImage({ url: 'oci://registry.example/os:1' }))).toEqual([]);
    expect(messagesFor(withImage({ url: 'https://127.0.0.1/live.iso', format: 'live-iso' }))).toEqual([]);
  });

  it('refuses a URL that is relative or of another scheme', () => {
    expect(urlProblem('images/x.img')).toBe('parse "images/x.img": invalid URI for request');
    expect(urlProblem('')).toBe('parse "": empty url');
    expect(messagesFor(withImage({ url: 'file:///x.img', checksum: 'abc' }))).toEqual(['image URL file:///x.img is invalid: invalid scheme in URL, "file" not allowed']);
  });

  it('refuses a missing checksum and a checksum on an OCI image', () => {
    expect(messagesFor(withImage({ url: 'http://127.0.0.1/i.img' }))).toEqual(['checksum is required for normal images']);
    expect(messagesFor(withImage({ url: 'oci://r/os:1', checksum: 'abc' })))
      .toEqual(['spec.image.checksum must be empty for OCI images (oci:// images have embedded checksums)']);
  });
});
