import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:https';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { IRONIC_SITE_DIR } from '../../../hack/stack/ironic.ts';
import { readState } from '../../../hack/stack/state.ts';
import { readStackEnv } from '../../support/stack-env.ts';

const run = promisify(execFile);

describe('the local stack', () => {
  const env = readStackEnv();

  it('serves a ready Kubernetes API', async () => {
    const { stdout } = await run(env.kubectl, ['--kubeconfig', env.kubeconfig, 'get', '--raw', '/readyz']);
    expect(stdout.trim()).toBe('ok');
  });

  it('has RBAC on: a request without client credentials is refused', async () => {
    const ca = readFileSync(join(env.stateDir, 'kube', 'pki', 'ca.crt'));
    const status = await new Promise<number>((resolveStatus, reject) => {
      get(`${env.apiServerUrl}/api/v1/namespaces`, { ca }, (response) => {
        response.resume();
        resolveStatus(response.statusCode ?? 0);
      }).on('error', reject);
    });
    expect([401, 403]).toContain(status);
  });

  it('lists the redfish, ipmi and fake-hardware drivers through the baremetal CLI', async () => {
    const { stdout } = await run(env.baremetal, ['driver', 'list', '-f', 'json'], {
      env: { ...process.env, OS_AUTH_TYPE: 'none', OS_ENDPOINT: env.ironicUrl },
    });
    const drivers = (JSON.parse(stdout) as Record<string, string>[]).map((row) => Object.values(row)[0]);
    expect(drivers).toEqual(expect.arrayContaining(['redfish', 'fake-hardware', 'ipmi']));
  });

  it("runs Ironic with its PBKDF2 digests remembered, giving the same digests as Python's own", async () => {
    const python = join(env.baremetal, '..', 'python3');
    const script = "import hashlib; print(getattr(hashlib.pbkdf2_hmac, 'metal3_ts_memoized', False), "
      + "[hashlib.pbkdf2_hmac('sha512', b'pw', b'salt' * 4, 1000).hex() for _ in range(2)])";
    const plain = await run(python, ['-c', script], { env: { ...process.env, PYTHONPATH: '' } });
    const remembered = await run(python, ['-c', script], { env: { ...process.env, PYTHONPATH: IRONIC_SITE_DIR, PYTHONDONTWRITEBYTECODE: '1' } });
    expect(plain.stdout.startsWith('False ')).toBe(true);
    expect(remembered.stdout.startsWith('True ')).toBe(true);
    expect(remembered.stdout.slice('True '.length)).toBe(plain.stdout.slice('False '.length));
    // The stack's Ironic was started with it (its recorded process spec; setproctitle clobbers /proc/<pid>/environ).
    const ironic = readState(env.stateDir)?.components.find((component) => component.name === 'ironic');
    expect(ironic?.spec.env?.['PYTHONPATH']).toBe(IRONIC_SITE_DIR);
  });

  it('serves API microversion 1.89 or newer', async () => {
    const body = (await (await fetch(`${env.ironicUrl}/v1`)).json()) as { version: { version: string } };
    const [major, minor] = body.version.version.split('.').map(Number) as [number, number];
    expect(major).toBe(1);
    expect(minor).toBeGreaterThanOrEqual(89);
  });

  it('serves test images with checksum files', async () => {
    const image = env.images[0]!;
    const checksum = await (await fetch(`${image.url}.sha256sum`)).text();
    expect(checksum.split(/\s+/)[0]).toBe(image.sha256);
    const head = await fetch(image.url, { method: 'HEAD' });
    expect(Number(head.headers.get('content-length'))).toBe(image.sizeBytes);
  });

  it('answers for every emulated system on the Redfish emulator', async () => {
    const auth = env.bmcCredentials
      ? { authorization: `Basic ${Buffer.from(`${env.bmcCredentials.username}:${env.bmcCredentials.password}`).toString('base64')}` }
      : undefined;
    for (const system of env.systems) {
      const response = await fetch(`${system.bmcUrl}/redfish/v1/Systems/${system.uuid}`, auth ? { headers: auth } : {});
      expect(response.status).toBe(200);
    }
    // The isolated BMC group has an emulator of its own: the shared one does not know those servers.
    for (const index of env.isolatedBmc?.systems ?? []) {
      const response = await fetch(`${env.sushyUrl}/redfish/v1/Systems/${env.systems[index]!.uuid}`, auth ? { headers: auth } : {});
      expect(response.status).toBe(404);
    }
    if (auth) expect((await fetch(`${env.sushyUrl}/redfish/v1/Systems/${env.systems[0]!.uuid}`)).status).toBe(401);
  });

  it('listens on loopback only', () => {
    for (const url of [env.ironicUrl, env.sushyUrl, env.agentSimulatorUrl, env.artifactsUrl, env.apiServerUrl]) {
      expect(new URL(url).hostname).toBe('127.0.0.1');
    }
  });
});
