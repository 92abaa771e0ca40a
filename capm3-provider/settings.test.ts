import { describe, expect, it } from '@jest/globals';
import { compileProviderSettings } from './settings.ts';

const compile = (argv: string[], env: Record<string, string> = {}) => compileProviderSettings({ env, argv });

describe('provider settings', () => {
  it('starts with the arguments of CAPM3\'s manager Deployment', () => {
    // config/manager/manager.yaml, with its variables at their defaults.
    const settings = compile(['--webhook-port=9443', '--enable-bmh-name-based-preallocation=false', '--diagnostics-address=:8443', '--insecure-diagnostics=false']);
    expect(settings).toMatchObject({ webhookPort: 9443, bmhNameBasedPreallocation: false, insecureDiagnostics: false, metricsSecure: true });
    expect(settings.metricsBindAddress).toEqual({ host: '0.0.0.0', port: 8443 });
  });

  it('serves metrics as Cluster API\'s providers do: HTTPS on :8443 unless --insecure-diagnostics (or --metrics-secure=false)', () => {
    expect(compile([])).toMatchObject({ metricsBindAddress: { host: '0.0.0.0', port: 8443 }, metricsSecure: true, insecureDiagnostics: false });
    expect(compile(['--insecure-diagnostics']).metricsSecure).toBe(false);
    expect(compile([], { METRICS_SECURE: 'false' }).metricsSecure).toBe(false);
  });

  it('defaults as CAPM3 where it acts, and takes the rest of CAPM3\'s flags', () => {
    expect(compile([])).toMatchObject({
      metal3MachineConcurrency: 10, clusterCacheClientQps: 20, clusterCacheClientBurst: 30, kubeApiQps: undefined, kubeApiBurst: 30,
      webhookPort: 9443, webhookCertDir: '/tmp/k8s-webhook-server/serving-certs/', tlsMinVersion: 'TLSv1.2', insecureDiagnostics: false, skipCrdMigrationPhases: [], leaderElectionId: 'controller-leader-election-capm3',
      // CAPM3's own default (main.go), not controller-runtime's 10h.
      syncPeriodMs: 600_000,
    });
    const settings = compile([
      '--leader-elect', '--leader-elect-lease-duration=20s', '--namespace=metal3', '--watch-filter=team-a', '--sync-period=5m',
      '--clustercache-client-qps=5', '--clustercache-client-burst=10', '--kube-api-qps=50', '--kube-api-burst=80',
      '--health-addr=:9441', '--webhook-cert-dir=/tmp/k8s-webhook-server/serving-certs/', '--metal3machine-concurrency=1',
      '--metal3remediation-concurrency=3', '--metal3labelsync-concurrency=2', '--enable-bmh-name-based-preallocation', '--skip-crd-migration-phases=StorageVersionMigration,CleanupManagedFields',
    ]);
    expect(settings).toMatchObject({
      leaderElect: true, leaseDurationMs: 20_000, namespace: 'metal3', watchNamespace: 'metal3', watchFilter: 'team-a', syncPeriodMs: 300_000,
      clusterCacheClientQps: 5, clusterCacheClientBurst: 10, kubeApiQps: 50, kubeApiBurst: 80, metal3MachineConcurrency: 1,
      metal3RemediationConcurrency: 3, metal3LabelSyncConcurrency: 2, bmhNameBasedPreallocation: true, skipCrdMigrationPhases: ['StorageVersionMigration', 'CleanupManagedFields'],
    });
    expect(settings.healthProbeBindAddress).toEqual({ host: '0.0.0.0', port: 9441 });
  });

  it('takes Cluster API\'s TLS flags for the webhook server: Go\'s version names, suite names and numeric curve IDs', () => {
    const settings = compile(['--tls-min-version=VersionTLS13', '--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_RSA_WITH_AES_128_GCM_SHA256',
      '--tls-curve-preferences=29,23']);
    expect(settings.tlsMinVersion).toBe('TLSv1.3');
    expect(settings.tlsCipherSuites).toEqual({ ciphers: expect.stringMatching(/^ECDHE-RSA-AES128-GCM-SHA256:AES128-GCM-SHA256:TLS_AES/), insecure: ['TLS_RSA_WITH_AES_128_GCM_SHA256'] });
    expect(settings.tlsCurvePreferences).toBe('X25519:P-256');
  });

  it('takes the Kubernetes logging flags CAPM3\'s manager has (-v as --v), acting on --v and --logging-format', () => {
    expect(compile(['-v=4', '--logging-format=text', '--vmodule=controller*=5', '--log-flush-frequency=5s'])).toMatchObject({
      verbosity: 4, loggingFormat: 'text', vmodule: 'controller*=5', logFlushFrequency: '5s',
    });
    expect(compile(['--v', '2'])).toMatchObject({ verbosity: 2, loggingFormat: undefined });
    expect(() => compile(['--logging-format=xml'])).toThrow('--logging-format');
    expect(() => compile(['--v=loud'])).toThrow('invalid setting CAPM3_LOG_V (--v): expected an integer');
  });

  it('refuses what it cannot read, naming the setting', () => {
    expect(() => compile(['--skip-crd-migration-phases=Everything'])).toThrow('unknown phase "Everything" (expected StorageVersionMigration or CleanupManagedFields)');
    expect(() => compile(['--tls-min-version=TLS12'])).toThrow('--tls-min-version');
    expect(() => compile(['--tls-curve-preferences=X25519'])).toThrow('unsupported TLS curve ID "X25519"');
  });
});
