import { z } from 'zod';
import { ConfigError, compileOptions, curvesFromGoIds, runtimeSettings, settingSchemas as s, tlsCipherSuitesSetting } from '../operator/runtime/index.ts';
import type { CompiledSettings, RuntimeDefaults, RuntimeOptions, SettingsSource, SettingsSpec } from '../operator/runtime/index.ts';

export const PROVIDER_NAME = 'capm3-controller-manager';

// Cluster API's --diagnostics-address: HTTPS on :8443 behind the API server's authentication and authorization.
const RUNTIME_DEFAULTS: RuntimeDefaults = { leaderElectionId: 'controller-leader-election-capm3', metricsBindAddress: ':8443', metricsSecure: true, healthProbeBindAddress: ':9440', syncPeriod: '10m' };

/** controller-runtime's default, where CAPM3's Deployment mounts its certificate. */
export const DEFAULT_WEBHOOK_CERT_DIR = '/tmp/k8s-webhook-server/serving-certs/';

/** Cluster API's --tls-min-version names (k8s cliflag's), as Node's. */
const TLS_VERSIONS = { VersionTLS10: 'TLSv1', VersionTLS11: 'TLSv1.1', VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3' } as const;
type GoTlsVersion = keyof typeof TLS_VERSIONS;

/** CAPM3's CRD migration phases (--skip-crd-migration-phases). */
const CRD_MIGRATION_PHASES = ['StorageVersionMigration', 'CleanupManagedFields'] as const;

/** The runtime's address settings also under CAPM3's names (its --health-addr, and Cluster API's --diagnostics-address). */
function capm3AddressNames() {
  const runtime = runtimeSettings(RUNTIME_DEFAULTS);
  return {
    healthProbeBindAddress: { ...runtime.healthProbeBindAddress, aliases: { flags: ['--health-addr'] } },
    metricsBindAddress: {
      ...runtime.metricsBindAddress,
      description: `${runtime.metricsBindAddress.description} Cluster API's --diagnostics-address names it too (HTTPS unless --insecure-diagnostics).`,
      aliases: { flags: ['--diagnostics-address'] },
    },
  } satisfies SettingsSpec;
}

/**
 * Kubernetes component-base's logging flags, which CAPM3's manager takes (logsv1.AddFlags), so a
 * Deployment that sets them starts: `--v` (CAPM3 logs debug from 4) and `--logging-format` are
 * acted on; the others are accepted and said to be unused.
 */
function componentBaseLogFlags() {
  const unused = (flag: string, env: string, what: string) => ({
    env, flag, description: `Kubernetes component-base's ${what}; accepted for CAPM3's Deployments, not acted on.`, schema: s.optionalString(),
  });
  return {
    verbosity: {
      env: 'CAPM3_LOG_V',
      flag: '--v',
      description: 'Kubernetes log verbosity, as CAPM3 takes it (-v too): 4 or more logs at debug level, as --log-level=debug.',
      schema: z.string().optional().transform((value, ctx) => {
        if (value === undefined || value.trim() === '') return undefined;
        const parsed = s.integer({ min: 0 }).safeParse(value);
        if (parsed.success) return parsed.data;
        for (const issue of parsed.error.issues) ctx.issues.push({ code: 'custom', message: issue.message, input: value });
        return z.NEVER;
      }),
    },
    loggingFormat: {
      env: 'CAPM3_LOGGING_FORMAT',
      flag: '--logging-format',
      description: 'Log format, as Kubernetes components name it: text (one readable line each) or json (the default here).',
      schema: s.oneOf(['text', 'json'] as const).optional(),
    },
    vmodule: unused('--vmodule', 'CAPM3_LOG_VMODULE', 'per-file verbosity (--vmodule)'),
    logFlushFrequency: unused('--log-flush-frequency', 'CAPM3_LOG_FLUSH_FREQUENCY', 'log flush period'),
    logJsonSplitStream: unused('--log-json-split-stream', 'CAPM3_LOG_JSON_SPLIT_STREAM', 'JSON error/info stream split'),
    logJsonInfoBufferSize: unused('--log-json-info-buffer-size', 'CAPM3_LOG_JSON_INFO_BUFFER_SIZE', 'JSON info stream buffer'),
    logTextSplitStream: unused('--log-text-split-stream', 'CAPM3_LOG_TEXT_SPLIT_STREAM', 'text error/info stream split'),
    logTextInfoBufferSize: unused('--log-text-info-buffer-size', 'CAPM3_LOG_TEXT_INFO_BUFFER_SIZE', 'text info stream buffer'),
  } satisfies SettingsSpec;
}

/** CAPM3's own flags (main.go), beside the runtime's kubebuilder-style ones. */
export function providerSettings() {
  const concurrency = (kind: string) => ({
    env: `${kind.toUpperCase()}_CONCURRENCY`,
    flag: `--${kind}-concurrency`,
    description: `${kind} objects reconciled at once.`,
    default: '10',
    schema: s.integer({ min: 1, max: 100 }),
  });
  return {
    ...capm3AddressNames(),
    namespace: {
      env: 'CAPM3_NAMESPACE',
      flag: '--namespace',
      description: 'Only watch this namespace (CAPM3\'s flag; WATCH_NAMESPACE works too). Default: all namespaces.',
      schema: s.optionalString(),
    },
    watchFilter: {
      env: 'CAPM3_WATCH_FILTER',
      flag: '--watch-filter',
      description: 'Only reconcile objects whose cluster.x-k8s.io/watch-filter label has this value.',
      schema: s.optionalString(),
    },
    metal3MachineConcurrency: concurrency('metal3machine'),
    metal3ClusterConcurrency: concurrency('metal3cluster'),
    metal3MachineTemplateConcurrency: concurrency('metal3machinetemplate'),
    metal3RemediationConcurrency: concurrency('metal3remediation'),
    metal3DataTemplateConcurrency: concurrency('metal3datatemplate'),
    metal3DataConcurrency: concurrency('metal3data'),
    metal3LabelSyncConcurrency: concurrency('metal3labelsync'),
    fastTrack: {
      env: 'CAPM3_FAST_TRACK',
      flag: '--fast-track',
      description: 'Keep released hosts powered on (Ironic fast track) instead of powering them off.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    clusterCacheClientQps: {
      env: 'CLUSTERCACHE_CLIENT_QPS',
      flag: '--clustercache-client-qps',
      description: 'Requests per second to each workload cluster\'s API server at most (Cluster API\'s cluster cache; CAPM3: 20).',
      default: '20',
      schema: s.positiveNumber(),
    },
    clusterCacheClientBurst: {
      env: 'CLUSTERCACHE_CLIENT_BURST',
      flag: '--clustercache-client-burst',
      description: 'Requests to a workload cluster that may go at once above --clustercache-client-qps (CAPM3: 30).',
      default: '30',
      schema: s.integer({ min: 1 }),
    },
    webhookPort: {
      env: 'CAPM3_WEBHOOK_PORT',
      flag: '--webhook-port',
      description: 'Port of the HTTPS admission webhook server: CAPM3\'s defaulting and validating webhooks (0 turns it off).',
      default: '9443',
      schema: s.integer({ min: 0, max: 65535 }),
    },
    webhookCertDir: {
      env: 'CAPM3_WEBHOOK_CERT_DIR',
      flag: '--webhook-cert-dir',
      description: 'Directory holding the webhook serving certificate as tls.crt and tls.key (controller-runtime\'s layout); re-read when it changes.',
      default: DEFAULT_WEBHOOK_CERT_DIR,
      schema: s.string(),
    },
    tlsMinVersion: {
      env: 'CAPM3_TLS_MIN_VERSION',
      flag: '--tls-min-version',
      description: `Lowest TLS version the webhook server accepts (Cluster API's flag): ${Object.keys(TLS_VERSIONS).join(', ')}.`,
      default: 'VersionTLS12',
      schema: s.oneOf(Object.keys(TLS_VERSIONS) as [GoTlsVersion, ...GoTlsVersion[]]).transform((name) => TLS_VERSIONS[name]),
    },
    tlsCipherSuites: tlsCipherSuitesSetting('CAPM3_TLS_CIPHER_SUITES'),
    tlsCurvePreferences: {
      env: 'CAPM3_TLS_CURVE_PREFERENCES',
      flag: '--tls-curve-preferences',
      description: 'Comma-separated key exchange groups the webhook server offers, by Go\'s numeric crypto/tls CurveID (Cluster API\'s flag): 23, 24, 25, 29, 4587, 4588, 4589. Default: Node\'s.',
      schema: s.optionalTranslated<string>(curvesFromGoIds),
    },
    insecureDiagnostics: {
      env: 'CAPM3_INSECURE_DIAGNOSTICS',
      flag: '--insecure-diagnostics',
      description:
        'Metrics over plain HTTP without authentication (Cluster API\'s flag; --metrics-secure=false does the same). Default false: HTTPS, each scrape\'s bearer token checked with a TokenReview and a SubjectAccessReview.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    bmhNameBasedPreallocation: {
      env: 'ENABLE_BMH_NAME_BASED_PREALLOCATION',
      flag: '--enable-bmh-name-based-preallocation',
      description: 'Name new Metal3 IPClaims `<host>-<pool>` instead of `<metal3data>-<pool>`, so an IPPool\'s preAllocations can name BareMetalHosts (CAPM3\'s flag). Claims made before keep their names.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    skipCrdMigrationPhases: {
      env: 'CAPM3_SKIP_CRD_MIGRATION_PHASES',
      flag: '--skip-crd-migration-phases',
      description: `CAPM3's CRD migration phases to skip (${CRD_MIGRATION_PHASES.join(', ')}, comma-separated). This provider runs no CRD migration, so there is nothing to skip; names are checked.`,
      schema: z.string().optional().transform((value, ctx) => {
        const phases = (value ?? '').split(',').map((phase) => phase.trim()).filter(Boolean);
        for (const phase of phases) {
          if (!(CRD_MIGRATION_PHASES as readonly string[]).includes(phase)) {
            ctx.issues.push({ code: 'custom', message: `unknown phase "${phase}" (expected ${CRD_MIGRATION_PHASES.join(' or ')})`, input: value });
          }
        }
        return phases;
      }),
    },
    ...componentBaseLogFlags(),
    requeueAfterMs: {
      env: 'CAPM3_REQUEUE_AFTER',
      flag: '--requeue-after',
      description: 'How long to wait before looking again at something that is not ready yet (CAPM3: 30s).',
      default: '30s',
      schema: s.duration({ min: 100 }),
    },
  } satisfies SettingsSpec;
}

export type ProviderSettings = RuntimeOptions & CompiledSettings<ReturnType<typeof providerSettings>>;

/** Settings from the environment and flags; throws ConfigError naming every bad one. */
export function compileProviderSettings(source: SettingsSource): ProviderSettings {
  const settings = compileOptions(source, RUNTIME_DEFAULTS, providerSettings());
  if (settings.namespace && settings.watchNamespace && settings.namespace !== settings.watchNamespace) {
    throw new ConfigError([`--namespace (${settings.namespace}) and WATCH_NAMESPACE (${settings.watchNamespace}) disagree`]);
  }
  const namespace = settings.namespace ?? settings.watchNamespace;
  return { ...settings, watchNamespace: namespace, namespace, metricsSecure: settings.metricsSecure && !settings.insecureDiagnostics };
}
