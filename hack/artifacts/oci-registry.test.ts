import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OciRegistry } from './oci-registry.ts';
import { listeningArtifactsServer } from './test-support/listening.ts';

const image = Buffer.from('raw disk image '.repeat(1000));
const imageDigest = `sha256:${createHash('sha256').update(image).digest('hex')}`;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const GOOD = basic('puller', 's3cret');

describe('the artifacts server\'s OCI registry', () => {
  let dir = '';
  let url = '';
  let close = async () => undefined as void;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'oci-registry-test-'));
    writeFileSync(join(dir, 'os.raw'), image);
    const registry = new OciRegistry({
      repository: 'metal3/os', tag: 'v1', imageFile: join(dir, 'os.raw'), imageTitle: 'os.raw',
      credentials: { username: 'puller', password: 's3cret' },
    });
    ({ url, close } = await listeningArtifactsServer({ root: dir, registry }));
  });
  afterAll(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string, authorization?: string) => fetch(`${url}${path}`, authorization ? { headers: { authorization } } : {});

  it('asks for basic auth and refuses wrong credentials', async () => {
    const anonymous = await get('/v2/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="metal3-ts registry"');
    expect((await get('/v2/metal3/os/tags/list', basic('puller', 'nope'))).status).toBe(401);
    expect((await get('/v2/', GOOD)).status).toBe(200);
  });

  it('serves the tag as an index of one raw single-layer artifact whose layer is the image', async () => {
    expect(await (await get('/v2/metal3/os/tags/list', GOOD)).json()).toEqual({ name: 'metal3/os', tags: ['v1'] });
    const indexResponse = await get('/v2/metal3/os/manifests/v1', GOOD);
    expect(indexResponse.headers.get('content-type')).toBe('application/vnd.oci.image.index.v1+json');
    const index = (await indexResponse.json()) as { manifests: Array<{ digest: string; annotations: Record<string, string> }> };
    expect(index.manifests).toHaveLength(1);
    expect(index.manifests[0]!.annotations).toEqual({ disktype: 'raw' });
    const manifestResponse = await get(`/v2/metal3/os/manifests/${index.manifests[0]!.digest}`, GOOD);
    const manifestBody = Buffer.from(await manifestResponse.arrayBuffer());
    // Ironic checks a manifest's bytes against the digest it asked for.
    expect(`sha256:${createHash('sha256').update(manifestBody).digest('hex')}`).toBe(index.manifests[0]!.digest);
    const manifest = JSON.parse(manifestBody.toString()) as { layers: Array<{ digest: string; size: number }> };
    expect(manifest.layers).toEqual([expect.objectContaining({ digest: imageDigest, size: image.length })]);
    const blob = await get(`/v2/metal3/os/blobs/${imageDigest}`, GOOD);
    expect(Buffer.from(await blob.arrayBuffer()).equals(image)).toBe(true);
    expect((await get('/v2/metal3/os/blobs/sha256:0000', GOOD)).status).toBe(404);
  });

  it('lists who was answered what, never the password', async () => {
    const requests = await (await get('/registry/requests')).text();
    expect(requests).not.toContain('s3cret');
    const records = JSON.parse(requests) as Array<{ path: string; status: number; user: string | null; wrongCredentials: boolean }>;
    expect(records).toContainEqual(expect.objectContaining({ path: '/v2/metal3/os/tags/list', status: 401, user: null, wrongCredentials: true }));
    expect(records).toContainEqual(expect.objectContaining({ path: `/v2/metal3/os/blobs/${imageDigest}`, status: 200, user: 'puller' }));
  });

  it('still serves files, and nothing under /v2 without a registry', async () => {
    expect((await get('/os.raw')).status).toBe(200);
  });
});
