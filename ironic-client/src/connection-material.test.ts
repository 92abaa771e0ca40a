import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectionMaterial } from './connection-material.ts';

// Agents only keep PEM text until a connection is made, so placeholders do here.
const pem = (label: string, text: string) => `-----BEGIN ${label}-----\n${text}\n-----END ${label}-----\n`;

describe('connection material', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ironic-material-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('takes a renewed client certificate after the interval, with new agents; unchanged files keep the agents', async () => {
    const tls = { caFile: join(dir, 'ca.crt'), certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') };
    await writeFile(tls.caFile, pem('CERTIFICATE', 'ca'));
    await writeFile(tls.certFile, pem('CERTIFICATE', 'client-1'));
    await writeFile(tls.keyFile, pem('PRIVATE KEY', 'key-1'));
    let now = 0;
    const changes: (readonly string[])[] = [];
    const material = await ConnectionMaterial.load({ tls, refreshIntervalMs: 5_000, retireAfterMs: 30_000, now: () => now, onChange: (changed) => changes.push(changed) });
    const first = await material.current();
    expect(first.agents.httpsAgent.options).toMatchObject({ cert: pem('CERTIFICATE', 'client-1'), key: pem('PRIVATE KEY', 'key-1') });

    now += 5_000;
    expect((await material.current()).agents).toBe(first.agents);

    // cert-manager renews the pair.
    await writeFile(tls.certFile, pem('CERTIFICATE', 'client-2'));
    await writeFile(tls.keyFile, pem('PRIVATE KEY', 'key-2'));
    expect((await material.current()).agents).toBe(first.agents);
    now += 5_000;
    const renewed = await material.current();
    expect(renewed.agents).not.toBe(first.agents);
    expect(renewed.agents.httpsAgent.options).toMatchObject({ ca: pem('CERTIFICATE', 'ca'), cert: pem('CERTIFICATE', 'client-2'), key: pem('PRIVATE KEY', 'key-2') });
    // Told once, naming what changed: the unchanged re-read said nothing.
    expect(changes).toEqual([['client certificate']]);
    material.close();
  });

  it('reads the files once without an interval, and before every request with 0', async () => {
    const tls = { caFile: join(dir, 'once.crt') };
    await writeFile(tls.caFile, pem('CERTIFICATE', 'once-1'));
    let now = 0;
    const material = await ConnectionMaterial.load({ tls, retireAfterMs: 0, now: () => now });
    const always = await ConnectionMaterial.load({ tls, refreshIntervalMs: 0, retireAfterMs: 0, now: () => now });
    await writeFile(tls.caFile, pem('CERTIFICATE', 'once-2'));
    expect((await always.current()).agents.httpsAgent.options.ca).toBe(pem('CERTIFICATE', 'once-2'));
    now += 3_600_000;
    expect((await material.current()).agents.httpsAgent.options.ca).toBe(pem('CERTIFICATE', 'once-1'));
    material.close();
    always.close();
  });
});
