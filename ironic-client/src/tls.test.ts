import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpClient } from './http.ts';
import { compileOptions } from './options.ts';
import { createAgents } from './tls.ts';

// Agents only store PEM text until a connection is made, so placeholder contents suffice here.
const CA = '-----BEGIN CERTIFICATE-----\nca\n-----END CERTIFICATE-----\n';
const CERT = '-----BEGIN CERTIFICATE-----\nclient\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n';

describe('TLS agents', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ironic-tls-'));
    await writeFile(join(dir, 'ca.crt'), CA);
    await writeFile(join(dir, 'tls.crt'), CERT);
    await writeFile(join(dir, 'tls.key'), KEY);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('verifies certificates by default, with keep-alive', async () => {
    const { httpsAgent, httpAgent } = await createAgents();
    expect(httpsAgent.options.rejectUnauthorized).toBe(true);
    expect(httpsAgent.options.ca).toBeUndefined();
    expect(httpsAgent.options.keepAlive).toBe(true);
    expect(Reflect.get(httpAgent, 'keepAlive')).toBe(true);
  });

  it('trusts the CA file', async () => {
    const { httpsAgent } = await createAgents({ caFile: join(dir, 'ca.crt') });
    expect(httpsAgent.options.ca).toBe(CA);
    expect(httpsAgent.options.rejectUnauthorized).toBe(true);
  });

  it('turns verification off in insecure mode', async () => {
    const { httpsAgent } = await createAgents({ insecure: true });
    expect(httpsAgent.options.rejectUnauthorized).toBe(false);
  });

  it('presents a client certificate and key for mTLS', async () => {
    const { httpsAgent } = await createAgents({ certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') });
    expect(httpsAgent.options.cert).toBe(CERT);
    expect(httpsAgent.options.key).toBe(KEY);
  });

  it('can skip only the host name check', async () => {
    const { httpsAgent } = await createAgents({ caFile: join(dir, 'ca.crt'), skipHostnameVerification: true });
    expect(httpsAgent.options.rejectUnauthorized).toBe(true);
    expect(httpsAgent.options.checkServerIdentity?.('ironic', {} as never)).toBeUndefined();
  });

  it('needs both halves of a client certificate, and readable files', async () => {
    await expect(createAgents({ certFile: join(dir, 'tls.crt') })).rejects.toThrow(/both certFile and keyFile/);
    await expect(createAgents({ caFile: join(dir, 'nope.crt') })).rejects.toThrow(`cannot read Ironic CA file ${join(dir, 'nope.crt')}: ENOENT`);
  });

  it('builds the agents from the files, and an axios instance without proxies or redirects', async () => {
    const compiled = await compileOptions({
      endpoint: 'https://ironic.test:6385',
      tls: { caFile: join(dir, 'ca.crt'), certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') },
      timeoutMs: 1234,
    });
    const { agents } = await compiled.material.current();
    expect(agents.httpsAgent.options).toMatchObject({ ca: CA, cert: CERT, key: KEY, rejectUnauthorized: true });
    compiled.material.close();
    const http = createHttpClient(compiled);
    expect(http.defaults.proxy).toBe(false);
    expect(http.defaults.maxRedirects).toBe(0);
    expect(http.defaults.timeout).toBe(1234);
  });
});
