import { describe, expect, it } from '@jest/globals';
import { ConfigError } from './runtime/index.ts';
import { compileOperatorSettings, defaultConcurrency, switchSecretNames } from './settings.ts';

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
    // BMO's metrics: HTTPS on :8443 behind the API server's review.
    expect(settings).toMatchObject({ metricsBindAddress: { host: '0.0.0.0', port: 8443 }, metricsSecure: true });
  });

  it('reads BMO environment variables, flags winning', () => {
    const settings = compile(
      { IRONIC_ENDPOINT: 'https://ironic:6385', PROVISIONING_LIMIT: '5', BMO_CONCURRENCY: '3', IRONIC_INSECURE: 'true', WATCH_NAMESPACE: 'metal3' },
      ['--controller-concurrency=6', '--deletion-timeout=0', '--leader-elect'],
    );
    expect(settings).toMatchObject({ provisioningLimit: 5, concurrency: 6, ironicInsecure: true, watchNamespace: 'metal3', deletionTimeoutMs: 0, leaderElect: true });
  });

  it('puts the Lease where BMO puts it: POD_NAMESPACE, else the one watched namespace, else the in-cluster namespace', () => {
    const endpoint = { IRONIC_ENDPOINT: 'http://127.0.0.1:6385' };
    expect(compile({ ...endpoint, WATCH_NAMESPACE: 'metal3' }).leaderElectionNamespace).toBe('metal3');
    expect(compile({ ...endpoint, WATCH_NAMESPACE: 'metal3', POD_NAMESPACE: 'bmo-system' }).leaderElectionNamespace).toBe('bmo-system');
    expect(compile({ ...endpoint, WATCH_NAMESPACE: 'metal3' }, ['--leader-election-namespace=leases']).leaderElectionNamespace).toBe('leases');
    // Several namespaces or none: left to the manager (in-cluster namespace, else "default").
    expect(compile({ ...endpoint, WATCH_NAMESPACE: 'a,b' }).leaderElectionNamespace).toBeUndefined();
    expect(compile(endpoint).leaderElectionNamespace).toBeUndefined();
  });

  it('reads a concurrency of 0 as BMO does: not set, so one worker per CPU clamped to 2..8', () => {
    expect(compileOperatorSettings({ env: { IRONIC_ENDPOINT: 'http://127.0.0.1:6385', BMO_CONCURRENCY: '0' } }, { concurrency: 4 }).concurrency).toBe(4);
    expect(() => compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385' }, ['--controller-concurrency=-1'])).toThrow('BMO_CONCURRENCY (--controller-concurrency)');
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

  it('takes BMO\'s flags and variables with BMO\'s defaults', () => {
    const defaults = compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385' });
    expect(defaults).toMatchObject({
      webhookPort: 9443, webhookCertDir: '/tmp/k8s-webhook-server/serving-certs', tlsMinVersion: 'TLSv1.2', tlsMaxVersion: 'TLSv1.3',
      leaderElect: false, leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, maxProvisioningRetries: 5,
    });
    expect(defaults.healthProbeBindAddress).toEqual({ host: '0.0.0.0', port: 9440 });
    const settings = compile(
      { IRONIC_ENDPOINT: 'http://127.0.0.1:6385', LEASE_DURATION_SECONDS: '137', RENEW_DEADLINE_SECONDS: '107', RETRY_PERIOD_SECONDS: '26' },
      ['--metrics-addr=127.0.0.1:8085', '--health-addr=:9441', '--enable-leader-election', '--namespace=metal3', '--webhook-port=0',
        '--max-provisioning-retries=2', '--tls-min-version=TLS13'],
    );
    expect(settings).toMatchObject({
      leaderElect: true, watchNamespace: 'metal3', webhookPort: 0, maxProvisioningRetries: 2, tlsMinVersion: 'TLSv1.3',
      leaseDurationMs: 137_000, renewDeadlineMs: 107_000, retryPeriodMs: 26_000,
    });
    expect(settings.metricsBindAddress).toEqual({ host: '127.0.0.1', port: 8085 });
    expect(settings.healthProbeBindAddress).toEqual({ host: '0.0.0.0', port: 9441 });
  });

  it('starts with the arguments of BMO\'s manager Deployment, and takes every flag of BMO\'s main.go', () => {
    // config/base/manager.yaml passes these two.
    expect(compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385' }, ['--enable-leader-election', '--hostclaims']))
      .toMatchObject({ leaderElect: true, hostClaims: true, devLogging: false });
    const settings = compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385' }, [
      '--dev', '--kube-api-qps=20', '--kube-api-burst=30', '--build-preprov-image', '--provisioner=ironic',
      '--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_AES_128_GCM_SHA256,TLS_RSA_WITH_AES_128_GCM_SHA256',
      '--tls-curve-preferences=CurveP256,X25519MLKEM768',
    ]);
    expect(settings).toMatchObject({
      devLogging: true, kubeApiQps: 20, kubeApiBurst: 30, buildPreprovImage: true,
      tlsCipherSuites: {
        ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:AES128-GCM-SHA256:TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256',
        insecure: ['TLS_RSA_WITH_AES_128_GCM_SHA256'],
      },
      tlsCurvePreferences: 'P-256:X25519MLKEM768',
    });
  });

  it('takes BMO\'s Ironic networking variables, and names each one missing when networking is on', () => {
    const ironic = { IRONIC_ENDPOINT: 'http://127.0.0.1:6385' };
    expect(switchSecretNames(compile(ironic))).toBeUndefined();
    const on = compile({
      ...ironic, IRONIC_NETWORKING_ENABLED: 'true', IRONIC_SWITCH_CONFIGS_SECRET: 'metal3-switch-configs',
      IRONIC_SWITCH_CREDENTIALS_SECRET: 'metal3-switch-credentials', IRONIC_SWITCH_CREDENTIALS_PATH: '/etc/ironic/switch-credentials',
    });
    expect(switchSecretNames(on)).toEqual({ configSecretName: 'metal3-switch-configs', credentialsSecretName: 'metal3-switch-credentials', credentialsPath: '/etc/ironic/switch-credentials' });
    expect(() => compile({ ...ironic, IRONIC_NETWORKING_ENABLED: 'true', IRONIC_SWITCH_CONFIGS_SECRET: 'metal3-switch-configs' })).toThrow(expect.objectContaining({
      problems: [
        'invalid setting IRONIC_SWITCH_CREDENTIALS_SECRET: must be set when IRONIC_NETWORKING_ENABLED=true',
        'invalid setting IRONIC_SWITCH_CREDENTIALS_PATH: must be set when IRONIC_NETWORKING_ENABLED=true',
      ],
    }));
    expect(() => compile({ ...ironic, IRONIC_NETWORKING_ENABLED: 'maybe' })).toThrow(/IRONIC_NETWORKING_ENABLED/);
  });

  it('refuses cipher suites and curves Go does not name, or OpenSSL here does not offer', () => {
    const ironic = { IRONIC_ENDPOINT: 'http://127.0.0.1:6385' };
    expect(() => compile(ironic, ['--tls-cipher-suites=ECDHE-RSA-AES128-GCM-SHA256']))
      .toThrow('invalid setting TLS_CIPHER_SUITES (--tls-cipher-suites): cipher suite ECDHE-RSA-AES128-GCM-SHA256 not supported or doesn\'t exist');
    expect(() => compile(ironic, ['--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA']))
      .toThrow('cipher suite TLS_RSA_WITH_RC4_128_SHA is not offered by this build\'s OpenSSL');
    expect(() => compile(ironic, ['--tls-curve-preferences=P-256'])).toThrow('invalid setting TLS_CURVE_PREFERENCES (--tls-curve-preferences): unrecognized TLS curve preference "P-256"');
    expect(compile(ironic, ['--tls-cipher-suites='])).toMatchObject({ tlsCipherSuites: undefined });
  });

  it('reads BMO\'s Ironic client variables', () => {
    expect(compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385' })).toMatchObject({
      ironicClientTimeoutMs: 30_000, ironicClientCacheTtlMs: 5_000, ironicSkipClientSanVerify: false, ironicClientCertFile: undefined, ironicClientPrivateKeyFile: undefined,
    });
    expect(compile({
      IRONIC_ENDPOINT: 'https://ironic:6385', IRONIC_CLIENT_TIMEOUT: '1m', IRONIC_CLIENT_CACHE_TTL: '0', IRONIC_SKIP_CLIENT_SAN_VERIFY: 'true',
      IRONIC_CLIENT_CERT_FILE: '/certs/client/tls.crt', IRONIC_CLIENT_PRIVATE_KEY_FILE: '/certs/client/tls.key',
    })).toMatchObject({
      ironicClientTimeoutMs: 60_000, ironicClientCacheTtlMs: 0, ironicSkipClientSanVerify: true, ironicClientCertFile: '/certs/client/tls.crt', ironicClientPrivateKeyFile: '/certs/client/tls.key',
    });
  });

  it('reads BMO\'s force_persistent_boot_device variables, spelled as BMO spells them', () => {
    expect(compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385' })).toMatchObject({ liveIsoForcePersistentBootDevice: undefined, directDeployForcePersistentBootDevice: undefined });
    expect(compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385', LIVE_ISO_FORCE_PERSISTENT_BOOT_DEVICE: 'Always', DIRECT_DEPLOY_FORCE_PERSISTENT_BOOT_DEVICE: 'Never' }))
      .toMatchObject({ liveIsoForcePersistentBootDevice: 'Always', directDeployForcePersistentBootDevice: 'Never' });
    expect(() => compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385', LIVE_ISO_FORCE_PERSISTENT_BOOT_DEVICE: 'always' }))
      .toThrow('invalid setting LIVE_ISO_FORCE_PERSISTENT_BOOT_DEVICE (--live-iso-force-persistent-boot-device): must be one of Default, Always or Never (got "always")');
  });

  it('keeps the names it had before as aliases', () => {
    const settings = compile(
      { IRONIC_ENDPOINT: 'http://127.0.0.1:6385', LEADER_ELECTION_LEASE_DURATION: '4s', LEADER_ELECTION_RENEW_DEADLINE: '3s', LEADER_ELECTION_RETRY_PERIOD: '1s' },
      ['--metrics-bind-address=127.0.0.1:0', '--health-probe-bind-address=127.0.0.1:0', '--leader-elect', '--watch-namespace=hosts'],
    );
    expect(settings).toMatchObject({ leaderElect: true, watchNamespace: 'hosts', leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 1_000 });
    expect(settings.metricsBindAddress).toEqual({ host: '127.0.0.1', port: 0 });
    // BMO's name wins over the alias.
    expect(compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385', LEASE_DURATION_SECONDS: '20', LEADER_ELECTION_LEASE_DURATION: '4s' }).leaseDurationMs).toBe(20_000);
  });

  it('refuses a bad webhook port or TLS range, naming it', () => {
    expect(() => compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385' }, ['--webhook-port=70000'])).toThrow('WEBHOOK_PORT (--webhook-port): must be between 0 and 65535');
    expect(() => compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385' }, ['--tls-min-version=TLS13', '--tls-max-version=TLS12']))
      .toThrow('TLS_MIN_VERSION (--tls-min-version): higher than --tls-max-version');
    expect(() => compile({ IRONIC_ENDPOINT: 'http://127.0.0.1:6385', LEASE_DURATION_SECONDS: 'long' })).toThrow('LEASE_DURATION_SECONDS (--lease-duration-seconds)');
  });

  it('clamps the default concurrency to 2..8', () => {
    expect([defaultConcurrency(1), defaultConcurrency(4), defaultConcurrency(64)]).toEqual([2, 4, 8]);
  });
});
