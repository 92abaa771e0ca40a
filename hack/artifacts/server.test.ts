import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { listeningArtifactsServer } from './test-support/listening.ts';

describe('the artifacts server\'s static files', () => {
  const changed = new Date('2026-11-20T08:30:00Z');
  let dir = '';
  let url = '';
  let close = async () => undefined as void;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'artifacts-server-test-'));
    writeFileSync(join(dir, 'ipa.kernel'), 'kernel bytes');
    utimesSync(join(dir, 'ipa.kernel'), changed, changed);
    ({ url, close } = await listeningArtifactsServer({ root: dir }));
  });
  afterAll(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says when a file last changed, as Ironic\'s image cache needs to keep its master copy', async () => {
    const response = await fetch(`${url}/ipa.kernel`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('kernel bytes');
    expect(response.headers.get('last-modified')).toBe('Fri, 20 Nov 2026 08:30:00 GMT');
    expect(response.headers.get('content-length')).toBe('12');
  });

  it('answers HEAD with the same headers and no body', async () => {
    const response = await fetch(`${url}/ipa.kernel`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('last-modified')).toBe('Fri, 20 Nov 2026 08:30:00 GMT');
    expect(await response.text()).toBe('');
  });

  it('refuses missing files and other methods', async () => {
    expect((await fetch(`${url}/missing`)).status).toBe(404);
    expect((await fetch(`${url}/ipa.kernel`, { method: 'POST' })).status).toBe(405);
  });
});
