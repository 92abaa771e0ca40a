import { describe, expect, it } from '@jest/globals';
import { ConfigError } from './runtime/index.ts';
import { compileOperatorSettings, defaultConcurrency } from './settings.ts';

const compile = (env: Record<string, string>, argv: string[] = []) => compileOperatorSettings({ env, argv }, { concurrency: 4 });

describe('operator settings', () => {
  it('defaults like BMO', () => {
    const settings = compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385/v1/' });
    expect(settings).toMatchObject({
      provisioner: 'ironic',
      ironicEndpoint: 'http://127.0.0.1:6385/v1/',
      authRootDir: '/opt/metal3/auth',
      ironicInsecure: false,
      provisioningLimit: 20,
      concurrency: 4,
      maxProvisioningRetries: 5,
      deletionTimeoutMs: 3_600_000,
      ironicPollShortMs: 3_000,
      ironicPollLongMs: 10_000,
      allowFakeHardware: false,
      leaderElect: false,
      leaderElectionId: 'baremetal-operator',
    });
    expect(settings.healthProbeBindAddress).toMatchObject({ port: 9440 });
  });

  it('reads BMO environment variables, flags winning', () => {
    const settings = compile(
      { IRONIC_ENDPOINT: 'https://ironic:6385', PROVISIONING_LIMIT: '5', BMO_CONCURRENCY: '3', IRONIC_INSECURE: 'true', WATCH_NAMESPACE: 'metal3' },
      ['--controller-concurrency=6', '--deletion-timeout=0', '--leader-elect'],
    );
    expect(settings).toMatchObject({ provisioningLimit: 5, concurrency: 6, ironicInsecure: true, watchNamespace: 'metal3', deletionTimeoutMs: 0, leaderElect: true });
  });

  it('reads the Ironic poll intervals and the test-only fake-hardware switch', () => {
    const settings = compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385', IRONIC_POLL_SHORT: '1s' }, ['--ironic-poll-long=2500ms', '--allow-fake-hardware']);
    expect(settings).toMatchObject({ ironicPollShortMs: 1_000, ironicPollLongMs: 2_500, allowFakeHardware: true });
    expect(() => compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385', IRONIC_POLL_SHORT: '10ms' })).toThrow('IRONIC_POLL_SHORT (--ironic-poll-short)');
  });

  it('needs no Ironic for the fixture provisioner', () => {
    expect(compile({}, ['--provisioner=fixture']).provisioner).toBe('fixture');
  });

  it('stops on bad settings, naming each one', () => {
    expect(() => compile({})).toThrow('IRONIC_ENDPOINT (--ironic-endpoint): required with --provisioner=ironic');
    let error: unknown;
    try {
      compile({ IRONIC_ENDPOINT: 'ftp://x', PROVISIONING_LIMIT: '0', BMO_CONCURRENCY: 'many' }, ['--provisioner=ironic']);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('IRONIC_ENDPOINT (--ironic-endpoint): must be an http:// or https:// URL');
    expect(problems).toContain('PROVISIONING_LIMIT (--provisioning-limit)');
    expect(problems).toContain('BMO_CONCURRENCY (--controller-concurrency): expected an integer');
  });

  it('clamps the default concurrency to 2..8', () => {
    expect([defaultConcurrency(1), defaultConcurrency(4), defaultConcurrency(64)]).toEqual([2, 4, 8]);
  });
});
