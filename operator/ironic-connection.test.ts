import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProvisionerNotReadyError } from './controllers/baremetalhost/provisioner-not-ready.ts';
import { ScriptedProvisioner } from './controllers/baremetalhost/testing/scripted-provisioner.ts';
import { bmcAccessFor } from './bmc/index.ts';
import type { HostIdentity, RegisterOptions } from './provisioner/provisioner.ts';
import { guardTestOnlyBMC, ironicAuthFor, ironicFileProblems, ironicTlsFor, lazyProvisioner, writeFence } from './ironic-connection.ts';
import { NotLeaderError } from './runtime/index.ts';

const NO_FILES = { ironicCaCertFile: undefined, ironicClientCertFile: undefined, ironicClientPrivateKeyFile: undefined };

describe('the Ironic connection', () => {
  it('uses basic auth only when the credential files exist', () => {
    const root = mkdtempSync(join(tmpdir(), 'auth-'));
    expect(ironicAuthFor(root)).toEqual({ type: 'none' });
    mkdirSync(join(root, 'ironic'));
    writeFileSync(join(root, 'ironic', 'username'), 'ironic\n');
    expect(ironicFileProblems({ authRootDir: root, ...NO_FILES })).toEqual([expect.stringContaining('password cannot be read')]);
    writeFileSync(join(root, 'ironic', 'password'), 'pw\n');
    expect(ironicAuthFor(root)).toEqual({ type: 'http_basic', credentialsDir: join(root, 'ironic') });
    expect(ironicFileProblems({ authRootDir: root, ...NO_FILES })).toEqual([]);
  });

  it('names an unreadable CA file', () => {
    expect(ironicFileProblems({ authRootDir: '/nonexistent', ...NO_FILES, ironicCaCertFile: '/nonexistent/ca.pem' })).toEqual([
      'invalid setting IRONIC_CACERT_FILE (--ironic-cacert-file): cannot read /nonexistent/ca.pem',
    ]);
  });

  it('names an unreadable client certificate, and a certificate set without its key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-cert-'));
    writeFileSync(join(dir, 'tls.crt'), 'CERT');
    expect(ironicFileProblems({ authRootDir: '/nonexistent', ...NO_FILES, ironicClientCertFile: join(dir, 'tls.crt') })).toEqual([
      'invalid settings IRONIC_CLIENT_CERT_FILE and IRONIC_CLIENT_PRIVATE_KEY_FILE: a client certificate needs its key, and the key its certificate',
    ]);
    expect(ironicFileProblems({ authRootDir: '/nonexistent', ironicCaCertFile: undefined, ironicClientCertFile: join(dir, 'tls.crt'), ironicClientPrivateKeyFile: join(dir, 'tls.key') }))
      .toEqual([`invalid setting IRONIC_CLIENT_PRIVATE_KEY_FILE (--ironic-client-private-key-file): cannot read ${join(dir, 'tls.key')}`]);
  });

  it('uses BMO\'s certificate paths only where files are, and what the settings name first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bmo-certs-'));
    const defaults = { caFile: join(dir, 'ca', 'tls.crt'), certFile: join(dir, 'client', 'tls.crt'), keyFile: join(dir, 'client', 'tls.key') };
    const flags = { ironicInsecure: false, ironicSkipClientSanVerify: true };
    expect(ironicTlsFor({ ...NO_FILES, ...flags }, defaults)).toEqual({ insecure: false, skipHostnameVerification: true });
    mkdirSync(join(dir, 'ca'));
    mkdirSync(join(dir, 'client'));
    writeFileSync(defaults.caFile, 'CA');
    writeFileSync(defaults.certFile, 'CERT');
    // A certificate without its key is not presented, as in BMO.
    expect(ironicTlsFor({ ...NO_FILES, ...flags }, defaults)).toEqual({ caFile: defaults.caFile, insecure: false, skipHostnameVerification: true });
    writeFileSync(defaults.keyFile, 'KEY');
    expect(ironicTlsFor({ ...NO_FILES, ...flags }, defaults))
      .toEqual({ caFile: defaults.caFile, certFile: defaults.certFile, keyFile: defaults.keyFile, insecure: false, skipHostnameVerification: true });
    expect(ironicTlsFor({ ...flags, ironicCaCertFile: '/etc/ironic-ca.pem', ironicClientCertFile: '/etc/c.pem', ironicClientPrivateKeyFile: '/etc/k.pem' }, defaults))
      .toEqual({ caFile: '/etc/ironic-ca.pem', certFile: '/etc/c.pem', keyFile: '/etc/k.pem', insecure: false, skipHostnameVerification: true });
  });

  it('is not ready until it connects, then connects once', async () => {
    let attempts = 0;
    const real = new ScriptedProvisioner();
    const provisioner = lazyProvisioner(async () => {
      attempts++;
      if (attempts === 1) throw new Error('ECONNREFUSED');
      return real;
    });
    const host = { namespace: 'ns', name: 'host-0', uid: 'u' } as unknown as HostIdentity;
    await expect(provisioner.hardwareState({ host })).rejects.toBeInstanceOf(ProvisionerNotReadyError);
    await provisioner.hardwareState({ host });
    await provisioner.hardwareState({ host });
    expect(attempts).toBe(2);
    expect(real.callsOf('hardwareState')).toHaveLength(2);
  });

  it('refuses the test-only fake-hardware BMC type unless allowed, and passes everything else through', async () => {
    const access = (address: string) => {
      const result = bmcAccessFor({ address });
      if (!result.ok) throw result.error;
      return result.access;
    };
    const options = (address: string) => ({ bmc: access(address), host: { namespace: 'ns', name: address, uid: 'u' } }) as unknown as RegisterOptions;
    const real = new ScriptedProvisioner();
    const refusing = guardTestOnlyBMC(real, { allowFakeHardware: false });
    expect(await refusing.register(options('fake-hardware://bench-1'))).toEqual({
      kind: 'failed', message: expect.stringContaining('--allow-fake-hardware'),
    });
    expect(real.callsOf('register')).toHaveLength(0);
    await refusing.register(options('redfish://192.168.1.1'));
    await guardTestOnlyBMC(real, { allowFakeHardware: true }).register(options('fake-hardware://bench-1'));
    expect(real.callsOf('register')).toHaveLength(2);
    await refusing.hardwareState({ host: options('redfish://192.168.1.1').host });
    expect(real.callsOf('hardwareState')).toHaveLength(1);
  });
});

describe('writeFence', () => {
  it('refuses an Ironic change, naming it, only while this replica may not write', () => {
    let mayWrite = true;
    const fence = writeFence(() => mayWrite);
    expect(() => fence({ method: 'PATCH', route: '/v1/nodes/{node_ident}' })).not.toThrow();
    mayWrite = false;
    expect(() => fence({ method: 'PATCH', route: '/v1/nodes/{node_ident}' })).toThrow(
      new NotLeaderError('not the leader: Ironic PATCH /v1/nodes/{node_ident} refused'));
  });
});
