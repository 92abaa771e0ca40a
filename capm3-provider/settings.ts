import { ConfigError, compileOptions, settingSchemas as s } from '../operator/runtime/index.ts';
import type { CompiledSettings, RuntimeOptions, SettingsSource, SettingsSpec } from '../operator/runtime/index.ts';

export const PROVIDER_NAME = 'capm3-controller-manager';

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
    fastTrack: {
      env: 'CAPM3_FAST_TRACK',
      flag: '--fast-track',
      description: 'Keep released hosts powered on (Ironic fast track) instead of powering them off.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
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
  const settings = compileOptions(
    source,
    { leaderElectionId: 'controller-leader-election-capm3', metricsBindAddress: ':8080', healthProbeBindAddress: ':9440' },
    providerSettings(),
  );
  if (settings.namespace && settings.watchNamespace && settings.namespace !== settings.watchNamespace) {
    throw new ConfigError([`--namespace (${settings.namespace}) and WATCH_NAMESPACE (${settings.watchNamespace}) disagree`]);
  }
  const namespace = settings.namespace ?? settings.watchNamespace;
  return { ...settings, watchNamespace: namespace, namespace };
}
