import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A self-signed loopback serving certificate, as a kubelet makes when none is configured (the
 * API server checks a kubelet's certificate only when given `--kubelet-certificate-authority`).
 */
export async function selfSignedLoopbackCertificate(commonName: string): Promise<{ cert: Buffer; key: Buffer }> {
  const dir = await mkdtemp(join(tmpdir(), 'simulated-kubelet-'));
  try {
    const cert = join(dir, 'kubelet.crt');
    const key = join(dir, 'kubelet.key');
    await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '365',
      '-subj', `/CN=${commonName}`, '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', cert]);
    return { cert: await readFile(cert), key: await readFile(key) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
