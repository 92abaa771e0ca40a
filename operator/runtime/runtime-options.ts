import { parseBindAddress } from './http-server.ts';
import type { BindAddress } from './http-server.ts';
import { cipherSuitesFromGoNames } from './go-tls-names.ts';
import type { CipherSuiteChoice } from './go-tls-names.ts';
import { LOG_LEVELS } from './logger.ts';
import type { LogLevel } from './logger.ts';
import { ConfigError, compileSettings, settingSchemas as s } from './settings.ts';
import type { CompiledSettings, SettingSpec, SettingsSource, SettingsSpec } from './settings.ts';
import { z } from 'zod';

const bindAddress = () =>
  z.string({ error: 'required' }).transform((value, ctx): BindAddress | null => {
    try {
      return parseBindAddress(value);
    } catch (error) {
      ctx.issues.push({ code: 'custom', message: (error as Error).message, input: value });
      return z.NEVER;
    }
  });

export interface RuntimeDefaults {
  /** Name of the Lease, e.g. `baremetal-operator-leader`. */
  leaderElectionId: string;
  metricsBindAddress?: string;
  /** Metrics over HTTPS behind the API server's authentication and authorization (BMO, CAPM3); default false. */
  metricsSecure?: boolean;
  healthProbeBindAddress?: string;
  /** controller-runtime's 10h unless the manager's own main says otherwise (CAPM3: 10m). */
  syncPeriod?: string;
}

/** The settings every manager understands, named after kubebuilder's flags. */
/** The webhook server's --tls-cipher-suites, as BMO and Cluster API both take it; `env` is the manager's own name for it. */
export function tlsCipherSuitesSetting(env: string) {
  return {
    env,
    flag: '--tls-cipher-suites',
    description:
      'Comma-separated TLS 1.2 cipher suites the webhook server accepts, by Go\'s (IANA) names such as TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256; insecure ones are logged. TLS 1.3 suites are not configurable, as in Go. Default: Node\'s.',
    schema: s.optionalTranslated<CipherSuiteChoice>(cipherSuitesFromGoNames),
  } satisfies SettingSpec<CipherSuiteChoice | undefined>;
}

export function runtimeSettings(defaults: RuntimeDefaults) {
  return {
    metricsBindAddress: {
      env: 'METRICS_BIND_ADDRESS',
      flag: '--metrics-bind-address',
      description: 'Address the /metrics endpoint binds to (host:port, :port, or 0 to disable).',
      default: defaults.metricsBindAddress ?? ':8080',
      schema: bindAddress(),
    },
    metricsSecure: {
      env: 'METRICS_SECURE',
      flag: '--metrics-secure',
      description:
        'Serve /metrics over HTTPS and only to a bearer token the API server authenticates (TokenReview) whose user may get the path (SubjectAccessReview), as controller-runtime\'s secure metrics server; false serves plain HTTP to anyone.',
      default: String(defaults.metricsSecure ?? false),
      schema: s.boolean(),
      isBoolean: true,
    },
    metricsCertPath: {
      env: 'METRICS_CERT_PATH',
      flag: '--metrics-cert-path',
      description: 'Directory with the secure metrics server\'s tls.crt and tls.key. Unset: a self-signed certificate made at start, as controller-runtime makes one.',
      schema: s.optionalString(),
    },
    healthProbeBindAddress: {
      env: 'HEALTH_PROBE_BIND_ADDRESS',
      flag: '--health-probe-bind-address',
      description: 'Address the /healthz and /readyz endpoints bind to (0 disables).',
      default: defaults.healthProbeBindAddress ?? ':8081',
      schema: bindAddress(),
    },
    leaderElect: {
      env: 'LEADER_ELECT',
      flag: '--leader-elect',
      description: 'Elect a leader with a Lease, so only one replica reconciles.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    leaderElectionId: {
      env: 'LEADER_ELECTION_ID',
      flag: '--leader-election-id',
      description: 'Name of the leader election Lease.',
      default: defaults.leaderElectionId,
      schema: s.string(),
    },
    leaderElectionNamespace: {
      env: 'LEADER_ELECTION_NAMESPACE',
      flag: '--leader-election-namespace',
      description: 'Namespace of the Lease (default: POD_NAMESPACE, the in-cluster namespace, or "default").',
      schema: s.optionalString(),
    },
    leaseDurationMs: {
      env: 'LEADER_ELECTION_LEASE_DURATION',
      flag: '--leader-elect-lease-duration',
      description: 'How long standbys wait after the last renewal before taking over.',
      default: '15s',
      schema: s.duration({ min: 1000 }),
    },
    renewDeadlineMs: {
      env: 'LEADER_ELECTION_RENEW_DEADLINE',
      flag: '--leader-elect-renew-deadline',
      description: 'How long the leader keeps trying to renew before giving up.',
      default: '10s',
      schema: s.duration({ min: 1 }),
    },
    retryPeriodMs: {
      env: 'LEADER_ELECTION_RETRY_PERIOD',
      flag: '--leader-elect-retry-period',
      description: 'Pause between leader election attempts.',
      default: '2s',
      schema: s.duration({ min: 1 }),
    },
    gracefulShutdownTimeoutMs: {
      env: 'GRACEFUL_SHUTDOWN_TIMEOUT',
      flag: '--graceful-shutdown-timeout',
      description: 'How long to let in-flight reconciles finish on shutdown.',
      default: '30s',
      schema: s.duration(),
    },
    syncPeriodMs: {
      env: 'SYNC_PERIOD',
      flag: '--sync-period',
      description: 'How often every watched object is reconciled again even without changes (0 disables).',
      default: defaults.syncPeriod ?? '10h',
      schema: s.duration(),
    },
    watchNamespace: {
      env: 'WATCH_NAMESPACE',
      flag: '--watch-namespace',
      description: 'Only watch this namespace, or these comma-separated namespaces (default: all namespaces).',
      schema: s.optionalString(),
    },
    logLevel: {
      env: 'LOG_LEVEL',
      flag: '--log-level',
      description: `Log level: ${LOG_LEVELS.join(', ')}.`,
      default: 'info',
      schema: s.oneOf(LOG_LEVELS as unknown as readonly [LogLevel, ...LogLevel[]]),
    },
    podName: {
      env: 'POD_NAME',
      flag: '--pod-name',
      description: 'This replica\'s name, for the leader identity and Events (default: the host name).',
      schema: s.optionalString(),
    },
    podNamespace: {
      env: 'POD_NAMESPACE',
      flag: '--pod-namespace',
      description: 'This replica\'s namespace.',
      schema: s.optionalString(),
    },
    kubeApiQps: {
      env: 'KUBE_API_QPS',
      flag: '--kube-api-qps',
      description:
        'Requests per second this process sends the Kubernetes API server at most, sustained (client-go\'s QPS, under BMO\'s and CAPM3\'s flag). Unset: no client-side limit, where BMO and CAPM3 default to 20 (the API server\'s priority and fairness still paces a busy client).',
      schema: s.positiveNumber().optional(),
    },
    kubeApiBurst: {
      env: 'KUBE_API_BURST',
      flag: '--kube-api-burst',
      description: 'Requests that may go at once above --kube-api-qps after a quiet spell (client-go\'s burst; BMO and CAPM3: 30).',
      default: '30',
      schema: s.integer({ min: 1 }),
    },
    kubeconfig: {
      env: 'KUBECONFIG',
      flag: '--kubeconfig',
      description: 'Path to a kubeconfig (default: in-cluster config, then ~/.kube/config).',
      schema: s.optionalString(),
    },
  } satisfies SettingsSpec;
}

/** The namespaces a watch namespace setting names: BMO's comma-separated list; none means all. */
export function watchedNamespaces(watchNamespace: string | undefined): string[] {
  return [...new Set((watchNamespace ?? '').split(',').map((name) => name.trim()).filter(Boolean))];
}

export type RuntimeSettingsSpec = ReturnType<typeof runtimeSettings>;
export type RuntimeOptions = CompiledSettings<RuntimeSettingsSpec>;

function spec(specs: SettingsSpec, key: string): SettingSpec<unknown> {
  return specs[key] as SettingSpec<unknown>;
}

/**
 * Compiles the runtime's settings together with a program's own (`extra`), from the
 * environment and flags, into one defaulted object. Throws ConfigError naming every bad
 * setting.
 */
export function compileOptions<S extends SettingsSpec = Record<never, never>>(
  source: SettingsSource,
  defaults: RuntimeDefaults,
  extra?: S,
): RuntimeOptions & CompiledSettings<S> {
  const specs = { ...runtimeSettings(defaults), ...(extra ?? {}) } as RuntimeSettingsSpec & S;
  const options = compileSettings(specs, source) as RuntimeOptions & CompiledSettings<S>;
  const problems: string[] = [];
  const describe = (key: string) => `${spec(specs, key).env} (${spec(specs, key).flag})`;
  if (options.renewDeadlineMs >= options.leaseDurationMs) {
    problems.push(`invalid setting ${describe('renewDeadlineMs')}: must be shorter than the lease duration`);
  }
  if (options.retryPeriodMs >= options.renewDeadlineMs) {
    problems.push(`invalid setting ${describe('retryPeriodMs')}: must be shorter than the renew deadline`);
  }
  if (problems.length) throw new ConfigError(problems);
  return options;
}
