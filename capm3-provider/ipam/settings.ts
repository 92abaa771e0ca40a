import { ConfigError, compileOptions, runtimeSettings, settingSchemas as s } from '../../operator/runtime/index.ts';
import type { CompiledSettings, RuntimeDefaults, RuntimeOptions, SettingsSource, SettingsSpec } from '../../operator/runtime/index.ts';

export const IPAM_NAME = 'ipam-controller-manager';

// Cluster API's --diagnostics-address, as Metal3's IPAM takes it: HTTPS on :8443 behind the API server's review.
const RUNTIME_DEFAULTS: RuntimeDefaults = { leaderElectionId: 'controller-leader-election-ipam-capm3', metricsBindAddress: ':8443', metricsSecure: true, healthProbeBindAddress: ':9440' };

/** The ip-address-manager's own flags (main.go), beside the runtime's kubebuilder-style ones. */
export function ipamSettings() {
  const runtime = runtimeSettings(RUNTIME_DEFAULTS);
  return {
    metricsBindAddress: {
      ...runtime.metricsBindAddress,
      description: `${runtime.metricsBindAddress.description} Cluster API's --diagnostics-address names it too (HTTPS unless --insecure-diagnostics).`,
      aliases: { flags: ['--diagnostics-address'] },
    },
    insecureDiagnostics: {
      env: 'IPAM_INSECURE_DIAGNOSTICS',
      flag: '--insecure-diagnostics',
      description: 'Metrics over plain HTTP without authentication (Cluster API\'s flag; --metrics-secure=false does the same). Default false: HTTPS, each scrape\'s bearer token checked with a TokenReview and a SubjectAccessReview.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    namespace: {
      env: 'IPAM_NAMESPACE',
      flag: '--namespace',
      description: 'Only watch this namespace (WATCH_NAMESPACE works too). Default: all namespaces.',
      schema: s.optionalString(),
    },
    watchFilter: {
      env: 'IPAM_WATCH_FILTER',
      flag: '--watch-filter',
      description: 'Only serve IPPools whose cluster.x-k8s.io/watch-filter label has this value.',
      schema: s.optionalString(),
    },
    ippoolConcurrency: {
      env: 'IPPOOL_CONCURRENCY',
      flag: '--ippool-concurrency',
      description: 'IPPools served at once (each pool is served by one pass at a time).',
      default: '10',
      schema: s.integer({ min: 1, max: 100 }),
    },
  } satisfies SettingsSpec;
}

export type IpamSettings = RuntimeOptions & CompiledSettings<ReturnType<typeof ipamSettings>>;

/** Settings from the environment and flags; throws ConfigError naming every bad one. */
export function compileIpamSettings(source: SettingsSource): IpamSettings {
  const settings = compileOptions(source, RUNTIME_DEFAULTS, ipamSettings());
  if (settings.namespace && settings.watchNamespace && settings.namespace !== settings.watchNamespace) {
    throw new ConfigError([`--namespace (${settings.namespace}) and WATCH_NAMESPACE (${settings.watchNamespace}) disagree`]);
  }
  const namespace = settings.namespace ?? settings.watchNamespace;
  return { ...settings, watchNamespace: namespace, namespace, metricsSecure: settings.metricsSecure && !settings.insecureDiagnostics };
}
