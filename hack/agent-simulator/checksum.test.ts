import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { AgentError } from './agent-errors.ts';
import { algorithmByLength, checksumFromFile, resolveExpectedChecksum } from './checksum.ts';
import { downloadAndVerifyImage } from './image-download.ts';
import type { ImageInfo } from './image-info.ts';
import { deadUrl, startTestServer, type TestHttpServer } from './test-support/http-server.ts';

const IMAGE = Buffer.from('pretend this is a whole disk image\n'.repeat(1000));
const hex = (algorithm: string) => createHash(algorithm).update(IMAGE).digest('hex');
const noFetch = async (url: string): Promise<string> => {
  throw new Error(`unexpected fetch of ${url}`);
};

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('checksumFromFile', () => {
  const imageUrl = 'http://images/os/disk.img';
  it('reads a file holding only the checksum', () => {
    expect(checksumFromFile(`${hex('sha256')}\n`, imageUrl, 'http://c')).toBe(hex('sha256'));
  });
  it('finds the line for the image among others (sha256sum text and binary mode, BSD style)', () => {
    const text = [
      '# checksums',
      `${'a'.repeat(64)}  other.img`,
      `${hex('sha256')} *disk.img`,
    ].join('\n');
    expect(checksumFromFile(text, imageUrl, 'http://c')).toBe(hex('sha256'));
    expect(checksumFromFile(`SHA256 (disk.img) = ${hex('sha256')}`, imageUrl, 'http://c')).toBe(hex('sha256'));
  });
  it('fails like IPA when the image is not listed or the file is empty', () => {
    expect(() => checksumFromFile(`${'a'.repeat(64)}  other.img\n${'b'.repeat(64)}  more.img`, imageUrl, 'http://c')).toThrow(
      'Download of image http://c failed: Checksum file does not contain name disk.img',
    );
    expect(() => checksumFromFile('\n\n', imageUrl, 'http://c')).toThrow('Empty checksum file');
    expect(() => checksumFromFile('nothex', imageUrl, 'http://c')).toThrow('Invalid checksum file');
  });
});

describe('algorithmByLength', () => {
  it('maps SHA-2 lengths and gates MD5', () => {
    expect(algorithmByLength(hex('sha512'), false)).toBe('sha512');
    expect(algorithmByLength(hex('sha256'), false)).toBe('sha256');
    expect(algorithmByLength(hex('md5'), true)).toBe('md5');
    expect(() => algorithmByLength(hex('md5'), false)).toThrow('MD5 support is disabled');
    expect(() => algorithmByLength('abc', true)).toThrow('Unable to identify checksum algorithm');
  });
});

describe('resolveExpectedChecksum', () => {
  const base: ImageInfo = { id: 'img', urls: ['http://images/disk.img'] };
  it('prefers os_hash_algo/os_hash_value', async () => {
    const info = { ...base, os_hash_algo: 'sha512', os_hash_value: hex('sha512'), checksum: hex('md5') };
    await expect(resolveExpectedChecksum(info, { md5Allowed: true, fetchText: noFetch })).resolves.toEqual({
      algorithm: 'sha512',
      value: hex('sha512'),
      source: 'os_hash_value',
    });
  });
  it('takes the algorithm of a plain checksum from its length', async () => {
    await expect(
      resolveExpectedChecksum({ ...base, checksum: hex('md5') }, { md5Allowed: true, fetchText: noFetch }),
    ).resolves.toMatchObject({ algorithm: 'md5', source: 'checksum' });
  });
  it('refuses an MD5 checksum when Ironic disabled MD5', async () => {
    const error = await failure(
      resolveExpectedChecksum({ ...base, checksum: hex('md5') }, { md5Allowed: false, fetchText: noFetch }),
    );
    expect(error.details).toContain('the algorithm could not be identified');
  });
  it('resolves a checksum URL', async () => {
    const fetchText = async () => `${hex('sha256')}  disk.img\n`;
    await expect(
      resolveExpectedChecksum({ ...base, checksum: 'http://images/SHA256SUMS' }, { md5Allowed: false, fetchText }),
    ).resolves.toEqual({ algorithm: 'sha256', value: hex('sha256'), source: 'checksum-url', checksumUrl: 'http://images/SHA256SUMS' });
  });
});

describe('downloadAndVerifyImage', () => {
  let server: TestHttpServer;
  beforeAll(async () => {
    server = await startTestServer({
      '/disk.img': { body: IMAGE, headers: { 'content-length': String(IMAGE.length) } },
      '/disk.img.sha256sum': { body: `${hex('sha256')}  disk.img\n` },
      '/broken': { status: 503, body: 'try later' },
    });
  });
  afterAll(() => server.close());

  const options = { md5Allowed: true, retries: 0, retryIntervalMs: 0 };

  it('downloads and verifies with a sha256 checksum', async () => {
    const result = await downloadAndVerifyImage({ id: 'disk.img', urls: [`${server.url}/disk.img`], checksum: hex('sha256') }, options);
    expect(result).toMatchObject({ url: `${server.url}/disk.img`, bytes: IMAGE.length, contentLength: IMAGE.length });
    expect(result.checksum).toMatchObject({ algorithm: 'sha256', value: hex('sha256'), actual: hex('sha256') });
  });

  it('verifies md5 and sha512 (os_hash) too', async () => {
    const url = `${server.url}/disk.img`;
    await expect(downloadAndVerifyImage({ id: 'i', urls: [url], checksum: hex('md5') }, options)).resolves.toMatchObject({
      checksum: { algorithm: 'md5' },
    });
    await expect(
      downloadAndVerifyImage({ id: 'i', urls: [url], os_hash_algo: 'sha512', os_hash_value: hex('sha512') }, options),
    ).resolves.toMatchObject({ checksum: { algorithm: 'sha512' } });
  });

  it('resolves the checksum from a URL', async () => {
    const result = await downloadAndVerifyImage(
      { id: 'disk.img', urls: [`${server.url}/disk.img`], checksum: `${server.url}/disk.img.sha256sum` },
      options,
    );
    expect(result.checksum).toMatchObject({ source: 'checksum-url', actual: hex('sha256') });
  });

  it('fails on a wrong checksum, after the configured retries', async () => {
    const before = server.requests.length;
    const error = await failure(
      downloadAndVerifyImage(
        { id: 'disk.img', urls: [`${server.url}/disk.img`], checksum: 'f'.repeat(64) },
        { ...options, retries: 1 },
      ),
    );
    expect(error.type).toBe('ImageChecksumError');
    expect(error.details).toBe(
      'Image failed to verify against checksum. location: /tmp/disk.img; image ID: disk.img; ' +
        `image checksum: ${'f'.repeat(64)}; verification checksum: ${hex('sha256')}`,
    );
    expect(server.requests.length - before).toBe(2);
  });

  it('fails at once on a 404 (fatal), naming the URL and status', async () => {
    const error = await failure(
      downloadAndVerifyImage({ id: 'gone', urls: [`${server.url}/gone.img`], checksum: hex('sha256') }, { ...options, retries: 3 }),
    );
    expect(error.type).toBe('ImageDownloadFatalError');
    expect(error.details).toContain(`Download of image gone failed: Received status code 404 from ${server.url}/gone.img`);
  });

  it('fails when the checksum URL is missing', async () => {
    const error = await failure(
      downloadAndVerifyImage(
        { id: 'disk.img', urls: [`${server.url}/disk.img`], checksum: `${server.url}/missing.sha256sum` },
        options,
      ),
    );
    expect(error.details).toContain(`Received status code 404 from ${server.url}/missing.sha256sum`);
  });

  it('tries the next URL when one is down, and fails when all are', async () => {
    const dead = await deadUrl('/disk.img');
    const result = await downloadAndVerifyImage(
      { id: 'disk.img', urls: [dead, `${server.url}/broken`, `${server.url}/disk.img`], checksum: hex('sha256') },
      options,
    );
    expect(result.url).toBe(`${server.url}/disk.img`);
    const error = await failure(downloadAndVerifyImage({ id: 'disk.img', urls: [dead], checksum: hex('sha256') }, options));
    expect(error.type).toBe('ImageDownloadError');
    expect(error.details).toContain(`Unable to connect to ${dead}`);
  });
});
