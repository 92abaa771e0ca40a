import { describe, expect, it } from '@jest/globals';
import { runIpam } from './main.ts';
import { compileIpamSettings } from './settings.ts';

describe('ipam-controller-manager start-up', () => {
  it('prints its flags for --help', async () => {
    const out: string[] = [];
    expect(await runIpam({ argv: ['--help'], env: {}, stdout: (text) => out.push(text) })).toBe(0);
    const usage = out.join('');
    for (const flag of ['--namespace', '--watch-filter', '--ippool-concurrency', '--leader-elect', '--metrics-bind-address']) expect(usage).toContain(flag);
    expect(usage).toContain('(default "controller-leader-election-ipam-capm3")');
  });

  it('refuses to start on bad settings, naming them', async () => {
    const errors: string[] = [];
    expect(await runIpam({ argv: ['--ippool-concurrency=0'], env: {}, stderr: (text) => errors.push(text) })).toBe(2);
    expect(errors.join('')).toContain('--ippool-concurrency');
    expect(() => compileIpamSettings({ argv: ['--namespace', 'a'], env: { WATCH_NAMESPACE: 'b' } }))
      .toThrow('--namespace (a) and WATCH_NAMESPACE (b) disagree');
  });

  it('serves metrics as Metal3\'s IPAM does: HTTPS on :8443 unless --insecure-diagnostics (or --metrics-secure=false)', () => {
    expect(compileIpamSettings({ argv: [], env: {} })).toMatchObject({ metricsBindAddress: { host: '0.0.0.0', port: 8443 }, metricsSecure: true, insecureDiagnostics: false });
    expect(compileIpamSettings({ argv: ['--diagnostics-address=:9000', '--insecure-diagnostics'], env: {} }))
      .toMatchObject({ metricsBindAddress: { host: '0.0.0.0', port: 9000 }, metricsSecure: false });
    expect(compileIpamSettings({ argv: [], env: { METRICS_SECURE: 'false' } }).metricsSecure).toBe(false);
  });

  it('takes --namespace as the watched namespace', () => {
    expect(compileIpamSettings({ argv: ['--namespace', 'metal3'], env: {} }).watchNamespace).toBe('metal3');
    expect(compileIpamSettings({ argv: [], env: { WATCH_NAMESPACE: 'x' } }).namespace).toBe('x');
  });
});
