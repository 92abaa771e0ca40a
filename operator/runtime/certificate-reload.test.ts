import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterEach, describe, expect, it } from '@jest/globals';
import { reloadCertificate } from './certificate-reload.ts';
import { silentLogger } from './logger.ts';
import { selfSignedCertificate } from './self-signed-certificate.ts';

/** The common name of the certificate a new TLS connection is served. */
function servedName(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().subject.CN as string);
      socket.end();
    });
    socket.on('error', reject);
  });
}

async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not met within 5 s');
}

describe('reloadCertificate', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('serves the renewed pair once tls.crt changes, and keeps the old one when the new files are broken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cert-reload-'));
    dirs.push(dir);
    const write = (pair: { cert: string; key: string }) => {
      writeFileSync(join(dir, 'tls.key'), pair.key);
      writeFileSync(join(dir, 'tls.crt'), pair.cert);
    };
    const first = selfSignedCertificate({ commonName: 'first', names: ['127.0.0.1'] });
    write(first);
    const server = createServer(first, (_, res) => res.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const errors: string[] = [];
    const logger = { ...silentLogger(), error: (message: string) => void errors.push(message) } as ReturnType<typeof silentLogger>;
    const stop = reloadCertificate(server, { certDir: dir, name: 'test', logger, intervalMs: 20 });
    const port = (server.address() as AddressInfo).port;
    try {
      expect(await servedName(port)).toBe('first');
      write(selfSignedCertificate({ commonName: 'renewed', names: ['127.0.0.1'] }));
      await eventually(async () => (await servedName(port)) === 'renewed');
      writeFileSync(join(dir, 'tls.crt'), 'not a certificate');
      await eventually(async () => errors.length > 0);
      expect(errors[0]).toBe('cannot reload the serving certificate; keeping the old one');
      expect(await servedName(port)).toBe('renewed');
    } finally {
      stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
