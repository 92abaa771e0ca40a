import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { DEFAULT_MAX_PROVISIONING_RETRIES } from './controllers/baremetalhost/delays.ts';
import { ConfigError, compileOptions, settingSchemas as s } from './runtime/index.ts';
import type { CompiledSettings, RuntimeOptions, SettingsSource, SettingsSpec } from './runtime/index.ts';

export const OPERATOR_NAME = 'baremetal-operator';

/** BMO's default: one worker per CPU, at least 2 and at most 8. */
export function defaultConcurrency(cpus: number = availableParallelism()): number {
  return Math.min(8, Math.max(2, cpus));
}

const httpUrl = () =>
  z
    .string()
    .optional()
    .refine((value) => value === undefined || /^https?:\/\/[^/]/.test(value), { error: 'must be an http:// or https:// URL' });

/** The operator's own settings, named after BMO's environment variables and flags. */
export function operatorSettings(defaults: { concurrency: number }) {
  return {
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
      description: 'PEM bundle of the CA that signed the Ironic certificate.',
      schema: s.optionalString(),
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
    provisioningLimit: {
      env: 'PROVISIONING_LIMIT',
      flag: '--provisioning-limit',
      description: 'Hosts allowed to inspect, clean or deploy over the provisioning network at once (virtual media is not limited).',
      default: '20',
      schema: s.integer({ min: 1 }),
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
      description: 'Hosts reconciled at once (default: CPUs, clamped to 2..8).',
      default: String(defaults.concurrency),
      schema: s.integer({ min: 1 }),
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
      description: 'How soon Ironic is polled again after a quick transition (manage, provide, power, locks); BMO: 3s, plus 0-25 % jitter.',
      default: '3s',
      schema: s.duration({ min: 100 }),
    },
    ironicPollLongMs: {
      env: 'IRONIC_POLL_LONG',
      flag: '--ironic-poll-long',
      description: 'How soon Ironic is polled again while the ramdisk works (inspection, cleaning, deployment); BMO: 10s, plus 0-25 % jitter.',
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
  const settings = compileOptions(
    source,
    { leaderElectionId: OPERATOR_NAME, metricsBindAddress: ':8080', healthProbeBindAddress: ':9440' },
    operatorSettings(defaults),
  );
  if (settings.provisioner === 'ironic' && !settings.ironicEndpoint) {
    throw new ConfigError(['invalid setting IRONIC_ENDPOINT (--ironic-endpoint): required with --provisioner=ironic']);
  }
  return settings;
}
