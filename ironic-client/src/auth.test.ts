import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAuth } from './auth.ts';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('resolveAuth', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ironic-auth-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  async function credentialsDir(name: string, files: Record<string, string>): Promise<string> {
    const dir = join(root, name);
    await mkdir(dir);
    for (const [file, content] of Object.entries(files)) await writeFile(join(dir, file), content);
    return dir;
  }

  it('has no header without auth', async () => {
    expect(await resolveAuth(undefined)).toEqual({ type: 'none', authorization: undefined });
    expect(await resolveAuth({ type: 'none' })).toEqual({ type: 'none', authorization: undefined });
  });

  it('builds the basic header from given credentials', async () => {
    expect(await resolveAuth({ type: 'http_basic', username: 'admin', password: 'secret' })).toEqual({
      type: 'http_basic',
      authorization: basic('admin', 'secret'),
    });
  });

  it('reads username and password files, dropping one trailing newline', async () => {
    const dir = await credentialsDir('ok', { username: 'ironic\n', password: ' spaced pass \r\n' });
    expect((await resolveAuth({ type: 'http_basic', credentialsDir: dir })).authorization).toBe(basic('ironic', ' spaced pass '));
  });

  it('names the missing or empty file', async () => {
    const missing = await credentialsDir('missing', { username: 'ironic' });
    await expect(resolveAuth({ type: 'http_basic', credentialsDir: missing })).rejects.toThrow(
      `cannot read Ironic password file ${join(missing, 'password')}: ENOENT`,
    );
    const empty = await credentialsDir('empty', { username: '\n', password: 'x' });
    await expect(resolveAuth({ type: 'http_basic', credentialsDir: empty })).rejects.toThrow(/username file .* is empty/);
  });

  it('rejects unusable credentials', async () => {
    await expect(resolveAuth({ type: 'http_basic', username: '', password: 'x' })).rejects.toThrow(/needs a username/);
    await expect(resolveAuth({ type: 'http_basic', username: 'a:b', password: 'x' })).rejects.toThrow(/cannot contain ":"/);
  });
});
