// The client against an Ironic running http_basic, on a throwaway stack of its own: credentials
// given directly or read from a directory as BMO does, and a wrong password refused clearly
// without the password ever showing in the error.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { stackDown, stackUp } from '../../../hack/stack/stack.ts';
import type { StackEnv } from '../../../hack/stack/state.ts';
import { connectIronic, IronicApiError, IronicNotFoundError, REQUESTS_TOTAL } from '../../../ironic-client/index.ts';
import type { IronicAuthOptions, IronicClient } from '../../../ironic-client/index.ts';

const runId = randomBytes(3).toString('hex');

async function listCreateDelete(client: IronicClient, name: string): Promise<void> {
  const before = (await client.nodes.listAll()).map((entry) => entry.uuid);
  const node = await client.nodes.create({ name, driver: 'fake-hardware' });
  const after = (await client.nodes.listAll()).map((entry) => entry.uuid);
  expect(after).toHaveLength(before.length + 1);
  expect(after).toEqual(expect.arrayContaining([...before, node.uuid]));
  expect((await client.nodes.get(name)).uuid).toBe(node.uuid);
  await client.nodes.delete(node.uuid);
  await expect(client.nodes.get(node.uuid)).rejects.toBeInstanceOf(IronicNotFoundError);
}

async function failure(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe('ironic-client with http_basic', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'metal3-ts-ic-basic-'));
  let env: StackEnv;
  let credentials: { username: string; password: string; directory: string };
  const clients: IronicClient[] = [];

  async function connect(auth: IronicAuthOptions, metricsRegistry?: Registry): Promise<IronicClient> {
    const client = await connectIronic({ endpoint: env.ironicUrl, auth, ...(metricsRegistry ? { metricsRegistry } : {}) });
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    env = await stackUp({ stateDir, systems: 1, ironicBasicAuth: true, bmcBasicAuth: false });
    if (!env.ironicAuth) throw new Error('the stack did not start Ironic with http_basic');
    credentials = env.ironicAuth;
  });

  afterAll(async () => {
    try {
      for (const client of clients) client.close();
    } finally {
      await stackDown(stateDir);
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('lists, creates and deletes nodes with the username and password given directly', async () => {
    const client = await connect({ type: 'http_basic', username: credentials.username, password: credentials.password });
    await listCreateDelete(client, `ironic-client-it~basic-direct-${runId}`);
  });

  it('reads the username and password files from a directory, as BMO does', async () => {
    const client = await connect({ type: 'http_basic', credentialsDir: credentials.directory });
    await listCreateDelete(client, `ironic-client-it~basic-dir-${runId}`);
  });

  it('refuses a wrong password with a typed 401 that never contains the password', async () => {
    const wrongPassword = `wrong-${randomBytes(8).toString('hex')}`;
    const wrongDir = join(stateDir, 'wrong-credentials');
    mkdirSync(wrongDir, { mode: 0o700 });
    writeFileSync(join(wrongDir, 'username'), `${credentials.username}\n`, { mode: 0o600 });
    writeFileSync(join(wrongDir, 'password'), `${wrongPassword}\n`, { mode: 0o600 });
    const registry = new Registry();
    // GET /v1 is public, so connecting succeeds; the first authenticated call is refused.
    const direct = await connect({ type: 'http_basic', username: credentials.username, password: wrongPassword }, registry);
    const fromDir = await connect({ type: 'http_basic', credentialsDir: wrongDir }, registry);
    const header = Buffer.from(`${credentials.username}:${wrongPassword}`).toString('base64');

    for (const error of [await failure(direct.nodes.list()), await failure(fromDir.nodes.create({ driver: 'fake-hardware' }))]) {
      expect(error).toBeInstanceOf(IronicApiError);
      expect(error).toMatchObject({ kind: 'unauthorized', status: 401, attempts: 1, transient: false });
      const apiError = error as IronicApiError;
      expect(apiError.faultstring).toBe('Incorrect username or password');
      expect(apiError.message).toMatch(/returned 401: authentication failed: Incorrect username or password$/);
      for (const text of [String(error), apiError.message, JSON.stringify(error), apiError.stack ?? '']) {
        expect(text).not.toContain(wrongPassword);
        expect(text).not.toContain(credentials.password);
        expect(text).not.toContain(header);
      }
    }
    const metric = await registry.getSingleMetric(REQUESTS_TOTAL)?.get();
    expect(metric?.values.filter((value) => value.labels.code === '401').map((value) => value.value)).toEqual([1, 1]);
  });

  it('refuses a client without credentials the same way', async () => {
    const anonymous = await connect({ type: 'none' });
    const error = await failure(anonymous.nodes.list());
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401, faultstring: 'Authorization required' });
    expect((error as Error).message).toMatch(/authentication failed/);
  });
});
