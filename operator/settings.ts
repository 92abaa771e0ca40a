import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { DEFAULT_MAX_PROVISIONING_RETRIES } from './controllers/baremetalhost/delays.ts';
import type { SwitchSecretNames } from './controllers/baremetalswitch/index.ts';
import { ConfigError, compileOptions, curvesFromGoNames, runtimeSettings, settingSchemas as s, tlsCipherSuitesSetting, watchedNamespaces } from './runtime/index.ts';
import type { CompiledSettings, RuntimeDefaults, RuntimeOptions, SettingsSource, SettingsSpec } from './runtime/index.ts';

export const OPERATOR_NAME = 'baremetal-operator';

/** controller-runtime's default cert dir for webhook servers, where BMO's Deployment mounts its certificate. */
export const DEFAULT_WEBHOOK_CERT_DIR = '/tmp/k8s-webhook-server/serving-certs';

// BMO's metrics: HTTPS on :8443 behind the API server's authentication and authorization.
const RUNTIME_DEFAULTS: RuntimeDefaults = { leaderElectionId: OPERATOR_NAME, metricsBindAddress: ':8443', metricsSecure: true, healthProbeBindAddress: ':9440' };

const TLS_VERSIONS = { TLS12: 'TLSv1.2', TLS13: 'TLSv1.3' } as const;

/**
 * The manager settings under BMO's flag and variable names (its main.go), the kubebuilder names
 * this operator had before kept as aliases. BMO's `--namespace` takes comma-separated namespaces too.
 */
function bmoRuntimeNames() {
  const runtime = runtimeSettings(RUNTIME_DEFAULTS);
  const renamed = <K extends keyof typeof runtime>(key: K, names: { flag: string; env?: string }) => ({
    ...runtime[key],
    flag: names.flag,
    env: names.env ?? runtime[key].env,
    aliases: { flags: [runtime[key].flag], ...(names.env ? { env: [runtime[key].env] } : {}) },
  });
  const seconds = (key: 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs', names: { flag: string; env: string }, min: number) => ({
    ...renamed(key, names),
    description: `${runtime[key].description} Whole seconds as in BMO, or a duration such as 15s.`,
    schema: s.secondsOrDuration({ min }),
  });
  return {
    metricsBindAddress: renamed('metricsBindAddress', { flag: '--metrics-addr' }),
    healthProbeBindAddress: renamed('healthProbeBindAddress', { flag: '--health-addr' }),
    leaderElect: renamed('leaderElect', { flag: '--enable-leader-election' }),
    watchNamespace: renamed('watchNamespace', { flag: '--namespace' }),
    leaderElectionNamespace: {
      ...runtime.leaderElectionNamespace,
      description: 'Namespace of the Lease (default, as BMO: POD_NAMESPACE, the one watched namespace, the in-cluster namespace, or "default").',
    },
    leaseDurationMs: seconds('leaseDurationMs', { flag: '--lease-duration-seconds', env: 'LEASE_DURATION_SECONDS' }, 1000),
    renewDeadlineMs: seconds('renewDeadlineMs', { flag: '--renew-deadline-seconds', env: 'RENEW_DEADLINE_SECONDS' }, 1),
    retryPeriodMs: seconds('retryPeriodMs', { flag: '--retry-period-seconds', env: 'RETRY_PERIOD_SECONDS' }, 1),
  } satisfies SettingsSpec;
}

/** Where BMO looks for Ironic's CA and its own client certificate when no variable names them. */
export const BMO_IRONIC_CA_FILE = '/opt/metal3/certs/ca/tls.crt';
export const BMO_IRONIC_CLIENT_CERT_FILE = '/opt/metal3/certs/client/tls.crt';
export const BMO_IRONIC_CLIENT_KEY_FILE = '/opt/metal3/certs/client/tls.key';

/** BMO's default: one worker per CPU, at least 2 and at most 8. */
export function defaultConcurrency(cpus: number = availableParallelism()): number {
  return Math.min(8, Math.max(2, cpus));
}

/** BMO's three values for force_persistent_boot_device, spelled exactly. */
function persistentBootDevice(text: string): 'Default' | 'Always' | 'Never' {
  if (text === 'Default' || text === 'Always' || text === 'Never') return text;
  throw new Error('must be one of Default, Always or Never');
}

const httpUrl = () =>
  z
    .string()
    .optional()
    .refine((value) => value === undefined || /^https?:\/\/[^/]/.test(value), { error: 'must be an http:// or https:// URL' });

/** The operator's own settings, named after BMO's environment variables and flags. */
export function operatorSettings(defaults: { concurrency: number }) {
  return {
    ...bmoRuntimeNames(),
    webhookPort: {
      env: 'WEBHOOK_PORT',
      flag: '--webhook-port',
      description: 'Port of the HTTPS admission webhook server (0 disables it).',
      default: '9443',
      schema: s.integer({ min: 0, max: 65535 }),
    },
    webhookCertDir: {
      env: 'WEBHOOK_CERT_DIR',
      flag: '--webhook-cert-dir',
      description: 'Directory holding the webhook serving certificate as tls.crt and tls.key (controller-runtime\'s layout); re-read when it changes.',
      default: DEFAULT_WEBHOOK_CERT_DIR,
      schema: s.string(),
    },
    tlsMinVersion: {
      env: 'TLS_MIN_VERSION',
      flag: '--tls-min-version',
      description: 'Lowest TLS version the webhook server accepts: TLS12 or TLS13.',
      default: 'TLS12',
      schema: s.oneOf(['TLS12', 'TLS13'] as const).transform((name) => TLS_VERSIONS[name]),
    },
    tlsMaxVersion: {
      env: 'TLS_MAX_VERSION',
      flag: '--tls-max-version',
      description: 'Highest TLS version the webhook server accepts: TLS12 or TLS13.',
      default: 'TLS13',
      schema: s.oneOf(['TLS12', 'TLS13'] as const).transform((name) => TLS_VERSIONS[name]),
    },
    tlsCipherSuites: tlsCipherSuitesSetting('TLS_CIPHER_SUITES'),
    tlsCurvePreferences: {
      env: 'TLS_CURVE_PREFERENCES',
      flag: '--tls-curve-preferences',
      description: 'Comma-separated key exchange groups the webhook server offers, by Go\'s names: X25519, CurveP256, CurveP384, CurveP521, X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024. Default: Node\'s.',
      schema: s.optionalTranslated<string>(curvesFromGoNames),
    },
    devLogging: {
      env: 'DEV_LOGGING',
      flag: '--dev',
      description: 'Developer logging, as BMO\'s --dev: one readable line per entry (time, level, message, fields) instead of JSON.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    hostClaims: {
      env: 'HOSTCLAIMS',
      flag: '--hostclaims',
      description:
        'Runs BMO\'s HostClaim controller: a HostClaim takes a BareMetalHost (its consumerRef), in its own namespace or one whose HostDeployPolicy accepts the claim\'s namespace, and gives it back when deleted.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    ironicNetworkingEnabled: {
      env: 'IRONIC_NETWORKING_ENABLED',
      flag: '--ironic-networking-enabled',
      description:
        'Runs BMO\'s BareMetalSwitch controller: each namespace\'s BareMetalSwitches are written into the Secrets Ironic\'s networking service reads (IRONIC_SWITCH_CONFIGS_SECRET, IRONIC_SWITCH_CREDENTIALS_SECRET), which must exist in that namespace.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    switchConfigsSecret: {
      env: 'IRONIC_SWITCH_CONFIGS_SECRET',
      flag: '--ironic-switch-configs-secret',
      description: 'Secret that gets the switch configuration file, switch-configs.conf (required with IRONIC_NETWORKING_ENABLED).',
      schema: s.optionalString(),
    },
    switchCredentialsSecret: {
      env: 'IRONIC_SWITCH_CREDENTIALS_SECRET',
      flag: '--ironic-switch-credentials-secret',
      description: 'Secret that gets the SSH private keys of key-authenticated switches, one <mac-with-dashes>.key each (required with IRONIC_NETWORKING_ENABLED).',
      schema: s.optionalString(),
    },
    switchCredentialsPath: {
      env: 'IRONIC_SWITCH_CREDENTIALS_PATH',
      flag: '--ironic-switch-credentials-path',
      description: 'Where Ironic\'s networking service has that Secret mounted, for the key_file lines (required with IRONIC_NETWORKING_ENABLED).',
      schema: s.optionalString(),
    },
    provisioner: {
      env: 'PROVISIONER',
      flag: '--provisioner',
      description: 'What drives the hardware: ironic, or the in-memory fixture (tests, demos, scale runs).',
      default: 'ironic',
      schema: s.oneOf(['ironic', 'fixture'] as const),
    },
    ironicEndpoint: {
      env: 'IRONIC_ENDPOINT',
      flag: '--ironic-endpoint',
      description: 'Ironic API URL, e.g. https://ironic.example:6385/v1/ (required with --provisioner=ironic).',
      schema: httpUrl(),
    },
    authRootDir: {
      env: 'METAL3_AUTH_ROOT_DIR',
      flag: '--auth-root-dir',
      description: 'Directory whose ironic/username and ironic/password files, when present, enable HTTP basic auth to Ironic.',
      default: '/opt/metal3/auth',
      schema: s.string(),
    },
    ironicCaCertFile: {
      env: 'IRONIC_CACERT_FILE',
      flag: '--ironic-cacert-file',
      description: `PEM bundle of the CA that signed the Ironic certificate; unless set, BMO's ${BMO_IRONIC_CA_FILE} when it exists, else the system's CAs.`,
      schema: s.optionalString(),
    },
    ironicClientCertFile: {
      env: 'IRONIC_CLIENT_CERT_FILE',
      flag: '--ironic-client-cert-file',
      description: `PEM client certificate presented to Ironic (mutual TLS), with --ironic-client-private-key-file; unless set, BMO's ${BMO_IRONIC_CLIENT_CERT_FILE} when it exists.`,
      schema: s.optionalString(),
    },
    ironicClientPrivateKeyFile: {
      env: 'IRONIC_CLIENT_PRIVATE_KEY_FILE',
      flag: '--ironic-client-private-key-file',
      description: `PEM private key of the Ironic client certificate; unless set, BMO's ${BMO_IRONIC_CLIENT_KEY_FILE} when it exists.`,
      schema: s.optionalString(),
    },
    ironicSkipClientSanVerify: {
      env: 'IRONIC_SKIP_CLIENT_SAN_VERIFY',
      flag: '--ironic-skip-client-san-verify',
      description: 'Check that a trusted CA signed Ironic\'s certificate, but not that it names the endpoint\'s host.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    ironicClientCacheTtlMs: {
      env: 'IRONIC_CLIENT_CACHE_TTL',
      flag: '--ironic-client-cache-ttl',
      description: 'How often the Ironic credential and certificate files are read again, so a rotated password or renewed certificate is used without a restart (BMO rebuilds its client this often; 0: before every request).',
      default: '5s',
      schema: s.duration(),
    },
    ironicClientTimeoutMs: {
      env: 'IRONIC_CLIENT_TIMEOUT',
      flag: '--ironic-client-timeout',
      description: 'How long one Ironic request may take before it fails (BMO: 30s).',
      default: '30s',
      schema: s.duration({ min: 1 }),
    },
    ironicInsecure: {
      env: 'IRONIC_INSECURE',
      flag: '--ironic-insecure',
      description: 'Skip TLS verification of Ironic (insecure).',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    deployKernelUrl: {
      env: 'DEPLOY_KERNEL_URL',
      flag: '--deploy-kernel-url',
      description: 'Kernel of the IPA ramdisk used for inspection, cleaning and deployment.',
      schema: httpUrl(),
    },
    deployRamdiskUrl: {
      env: 'DEPLOY_RAMDISK_URL',
      flag: '--deploy-ramdisk-url',
      description: 'Initramfs of the IPA ramdisk.',
      schema: httpUrl(),
    },
    deployIsoUrl: {
      env: 'DEPLOY_ISO_URL',
      flag: '--deploy-iso-url',
      description: 'IPA ISO for virtual-media BMCs.',
      schema: httpUrl(),
    },
    buildPreprovImage: {
      env: 'BUILD_PREPROV_IMAGE',
      flag: '--build-preprov-image',
      description:
        'BMO\'s PreprovisioningImage integration: each host boots the ramdisk of its PreprovisioningImage, made ready by the built-in image provider when DEPLOY_ISO_URL or DEPLOY_KERNEL_URL and DEPLOY_RAMDISK_URL are set (per architecture with DEPLOY_*_URL_<ARCH> or DEPLOY_*_BY_ARCH), else by an external one.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    provisioningLimit: {
      env: 'PROVISIONING_LIMIT',
      flag: '--provisioning-limit',
      description: 'Hosts allowed to inspect, clean or deploy over the provisioning network at once (virtual media is not limited).',
      default: '20',
      schema: s.integer({ min: 1 }),
    },
    liveIsoForcePersistentBootDevice: {
      env: 'LIVE_ISO_FORCE_PERSISTENT_BOOT_DEVICE',
      flag: '--live-iso-force-persistent-boot-device',
      description: 'Ironic\'s force_persistent_boot_device for live-ISO deployments: Default, Always or Never.',
      schema: s.optionalTranslated<'Default' | 'Always' | 'Never'>(persistentBootDevice),
    },
    directDeployForcePersistentBootDevice: {
      env: 'DIRECT_DEPLOY_FORCE_PERSISTENT_BOOT_DEVICE',
      flag: '--direct-deploy-force-persistent-boot-device',
      description: 'Ironic\'s force_persistent_boot_device for image deployments: Default, Always or Never.',
      schema: s.optionalTranslated<'Default' | 'Always' | 'Never'>(persistentBootDevice),
    },
    provisioningNetworkDisabled: {
      env: 'PROVISIONING_NETWORK_DISABLED',
      flag: '--provisioning-network-disabled',
      description: 'There is no provisioning network: refuse BMC types that need DHCP/PXE.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    concurrency: {
      env: 'BMO_CONCURRENCY',
      flag: '--controller-concurrency',
      description: 'Hosts reconciled at once (default, or 0 as in BMO: CPUs, clamped to 2..8).',
      default: String(defaults.concurrency),
      schema: s.integer({ min: 0 }),
    },
    maxProvisioningRetries: {
      env: 'MAX_PROVISIONING_RETRIES',
      flag: '--max-provisioning-retries',
      description: 'Failed provisioning attempts per image before giving up (0: unlimited).',
      default: String(DEFAULT_MAX_PROVISIONING_RETRIES),
      schema: s.integer({ min: 0 }),
    },
    ironicPollShortMs: {
      env: 'IRONIC_POLL_SHORT',
      flag: '--ironic-poll-short',
      description: 'How soon Ironic is polled again after a quick transition (manage, provide, power, locks), and the shortest poll of the measured schedule in transient states; BMO: 3s, plus 0-25 % jitter.',
      default: '3s',
      schema: s.duration({ min: 100 }),
    },
    ironicPollLongMs: {
      env: 'IRONIC_POLL_LONG',
      flag: '--ironic-poll-long',
      description: 'How soon Ironic is polled again while the ramdisk works (inspection, cleaning, deployment), and the longest poll of the measured schedule in transient states; BMO: 10s, plus 0-25 % jitter.',
      default: '10s',
      schema: s.duration({ min: 100 }),
    },
    allowFakeHardware: {
      env: 'ALLOW_FAKE_HARDWARE',
      flag: '--allow-fake-hardware',
      description: 'TEST ONLY: accept fake-hardware:// BMC addresses (Ironic fake-hardware: nothing is powered, booted or written), for the scale benchmark.',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    hardwareLabels: {
      env: 'HARDWARE_LABELS',
      flag: '--hardware-labels',
      description:
        'Keep hardware.metal3.io/ labels (cpu-count, cpu-arch, ram-gib, disk-gib and disk-type of the root disk, nic-count) on each host from its inspected hardware, for hostSelector (not in BMO).',
      default: 'false',
      schema: s.boolean(),
      isBoolean: true,
    },
    deletionTimeoutMs: {
      env: 'DELETION_TIMEOUT',
      flag: '--deletion-timeout',
      description: 'After this long, a host deletion skips the cleanup steps left (deprovision, power off, node removal) and says so in an event (0: never).',
      default: '1h',
      schema: s.duration(),
    },
  } satisfies SettingsSpec;
}

export type OperatorSettingsSpec = ReturnType<typeof operatorSettings>;
export type OperatorSettings = RuntimeOptions & CompiledSettings<OperatorSettingsSpec>;

/**
 * Every setting, from the environment and flags, compiled once into a typed, defaulted
 * object. Throws ConfigError naming each bad setting.
 */
export function compileOperatorSettings(source: SettingsSource, defaults = { concurrency: defaultConcurrency() }): OperatorSettings {
  const settings = compileOptions(source, RUNTIME_DEFAULTS, operatorSettings(defaults));
  if (settings.tlsMinVersion > settings.tlsMaxVersion) {
    throw new ConfigError(['invalid setting TLS_MIN_VERSION (--tls-min-version): higher than --tls-max-version']);
  }
  if (settings.ironicNetworkingEnabled) {
    const switchSettings = {
      IRONIC_SWITCH_CONFIGS_SECRET: settings.switchConfigsSecret,
      IRONIC_SWITCH_CREDENTIALS_SECRET: settings.switchCredentialsSecret,
      IRONIC_SWITCH_CREDENTIALS_PATH: settings.switchCredentialsPath,
    };
    const unset = Object.entries(switchSettings).filter(([, value]) => !value).map(([name]) => name);
    if (unset.length > 0) throw new ConfigError(unset.map((name) => `invalid setting ${name}: must be set when IRONIC_NETWORKING_ENABLED=true`));
  }
  if (settings.provisioner === 'ironic' && !settings.ironicEndpoint) {
    throw new ConfigError(['invalid setting IRONIC_ENDPOINT (--ironic-endpoint): required with --provisioner=ironic']);
  }
  // BMO's Lease: POD_NAMESPACE, else the watched namespace (out of cluster, or no downward API), so
  // this operator and a BMO it replaces elect from the same Lease. A list of namespaces is no one namespace.
  const watched = watchedNamespaces(settings.watchNamespace);
  const leaderElectionNamespace = settings.leaderElectionNamespace ?? settings.podNamespace ?? (watched.length === 1 ? watched[0] : undefined);
  // BMO reads 0 as "not set": one worker per CPU, clamped.
  return { ...settings, leaderElectionNamespace, concurrency: settings.concurrency === 0 ? defaults.concurrency : settings.concurrency };
}

/** The BareMetalSwitch controller's Secret names, when IRONIC_NETWORKING_ENABLED (compileOperatorSettings checked they are set). */
export function switchSecretNames(settings: OperatorSettings): SwitchSecretNames | undefined {
  if (!settings.ironicNetworkingEnabled || !settings.switchConfigsSecret || !settings.switchCredentialsSecret || !settings.switchCredentialsPath) return undefined;
  return { configSecretName: settings.switchConfigsSecret, credentialsSecretName: settings.switchCredentialsSecret, credentialsPath: settings.switchCredentialsPath };
}
