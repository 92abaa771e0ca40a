// The operator's composition root: settings, logger, Kubernetes and provisioner clients and
// the BareMetalHost controller are built here, once, and passed down. No singletons.
import { Registry, collectDefaultMetrics } from 'prom-client';
import { BareMetalHostResource } from './api/baremetalhost.ts';
import { setupBareMetalHostController } from './controllers/baremetalhost/index.ts';
import { setupBareMetalSwitchController } from './controllers/baremetalswitch/index.ts';
import { setupBMCEventSubscriptionController } from './controllers/bmceventsubscription/index.ts';
import { setupDataImageController } from './controllers/dataimage/index.ts';
import { setupHostClaimController } from './controllers/hostclaim/index.ts';
import { setupHostFirmwareComponentsController } from './controllers/hostfirmwarecomponents/index.ts';
import { setupHostFirmwareSettingsController } from './controllers/hostfirmwaresettings/index.ts';
import { canProvideImages, defaultImageProvider, setupPreprovisioningImageController } from './controllers/preprovisioningimage/index.ts';
import type { ImageProvider } from './controllers/preprovisioningimage/index.ts';
import { ironicFileProblems, ironicProvisioner } from './ironic-connection.ts';
import { FixtureProvisioner } from './provisioner/fixture/index.ts';
import type { Provisioner } from './provisioner/provisioner.ts';
import { ConfigError, Manager, WebhookServer, createLogger, loadKubeConfig, setupSignalHandler, systemClock, watchedNamespaces } from './runtime/index.ts';
import type { Logger, SignalProcess, TlsPolicy } from './runtime/index.ts';
import { OPERATOR_NAME, compileOperatorSettings, switchSecretNames } from './settings.ts';
import type { OperatorSettings } from './settings.ts';
import {
  BAREMETALHOST_WEBHOOK_PATH, BMCEVENTSUBSCRIPTION_WEBHOOK_PATH, DATAIMAGE_WEBHOOK_PATH, HOSTCLAIM_WEBHOOK_PATH, HOSTFIRMWARECOMPONENTS_WEBHOOK_PATH,
  HOSTNETWORKATTACHMENT_WEBHOOK_PATH, hostAttachmentReferences, reviewBareMetalHost, reviewBMCEventSubscription, reviewDataImage, reviewHostClaim,
  reviewHostFirmwareComponents, reviewHostNetworkAttachment,
} from './webhooks/index.ts';

export interface OperatorRun {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  /** Where usage and configuration errors go. */
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  process?: SignalProcess;
}

/** BMO's validating webhooks, unless --webhook-port=0; a server that cannot start fails /readyz, not the operator. */
function setupWebhooks(manager: Manager, settings: OperatorSettings, logger: Logger): void {
  if (settings.webhookPort === 0) {
    logger.info('webhook server disabled (--webhook-port=0)');
    return;
  }
  const hostLogger = logger.child({ webhook: 'BareMetalHost' });
  const componentsLogger = logger.child({ webhook: 'HostFirmwareComponents' });
  const dataImageLogger = logger.child({ webhook: 'DataImage' });
  const subscriptionLogger = logger.child({ webhook: 'BMCEventSubscription' });
  const claimLogger = logger.child({ webhook: 'HostClaim' });
  const attachmentLogger = logger.child({ webhook: 'HostNetworkAttachment' });
  // The BareMetalHost controller's cache: an attachment in use is found without a request per
  // review; a standby replica (no cache until it leads) asks the API server.
  const hostClient = manager.client(BareMetalHostResource);
  const findAttachmentReferences = hostAttachmentReferences({
    cache: manager.informer(BareMetalHostResource),
    listHosts: async () => {
      const namespaces = watchedNamespaces(settings.watchNamespace);
      if (namespaces.length === 0) return (await hostClient.list({})).items;
      return (await Promise.all(namespaces.map((namespace) => hostClient.list({ namespace })))).flatMap((list) => list.items);
    },
  });
  for (const cipher of settings.tlsCipherSuites?.insecure ?? []) logger.warn('use of insecure cipher detected', { cipher });
  const server = new WebhookServer({
    port: settings.webhookPort,
    certDir: settings.webhookCertDir,
    ...tlsPolicyOf(settings),
    handlers: {
      [BAREMETALHOST_WEBHOOK_PATH]: (request) =>
        reviewBareMetalHost(request, { options: { allowFakeHardware: settings.allowFakeHardware }, logger: hostLogger }),
      [HOSTFIRMWARECOMPONENTS_WEBHOOK_PATH]: (request) => reviewHostFirmwareComponents(request, { logger: componentsLogger }),
      [DATAIMAGE_WEBHOOK_PATH]: (request) => reviewDataImage(request, { logger: dataImageLogger }),
      [BMCEVENTSUBSCRIPTION_WEBHOOK_PATH]: (request) => reviewBMCEventSubscription(request, { logger: subscriptionLogger }),
      [HOSTCLAIM_WEBHOOK_PATH]: (request) => reviewHostClaim(request, { logger: claimLogger }),
      [HOSTNETWORKATTACHMENT_WEBHOOK_PATH]: (request) =>
        reviewHostNetworkAttachment(request, { logger: attachmentLogger, findReferences: findAttachmentReferences }),
    },
    logger,
  });
  manager.add(server);
  manager.addReadyzCheck('webhook', server.readyCheck);
}

/** BMO's --tls-* flags, which its webhook and metrics servers both follow. */
function tlsPolicyOf(settings: OperatorSettings): TlsPolicy {
  return {
    minVersion: settings.tlsMinVersion,
    maxVersion: settings.tlsMaxVersion,
    ...(settings.tlsCipherSuites ? { ciphers: settings.tlsCipherSuites.ciphers } : {}),
    ...(settings.tlsCurvePreferences ? { ecdhCurve: settings.tlsCurvePreferences } : {}),
  };
}

/**
 * BMO's --build-preprov-image: the built-in provider fills PreprovisioningImages only when the
 * DEPLOY_* variables name an image; otherwise an external provider is expected to.
 */
function setupPreprovisioningImages(manager: Manager, options: { provider: ImageProvider | undefined; concurrency: number; logger: Logger }): void {
  if (!options.provider) return;
  if (!canProvideImages(options.provider)) {
    options.logger.info('not starting preprovisioning image controller; no image data available (an external image provider must fill PreprovisioningImages)');
    return;
  }
  setupPreprovisioningImageController(manager, { provider: options.provider, maxConcurrentReconciles: options.concurrency });
}

function buildProvisioner(settings: OperatorSettings, deps: { logger: Logger; registry: Registry; manager: Manager }): Provisioner {
  if (settings.provisioner === 'fixture') {
    deps.logger.info('using the in-memory fixture provisioner: no hardware is touched');
    return new FixtureProvisioner({ recordCalls: false });
  }
  return ironicProvisioner({ settings, logger: deps.logger, registry: deps.registry, clock: systemClock, readyz: deps.manager.readyz,
    mayWrite: () => deps.manager.mayWrite() });
}

/** Runs the operator until SIGTERM/SIGINT; resolves to the process exit code. */
export async function runOperator(run: OperatorRun): Promise<number> {
  const stdout = run.stdout ?? ((text) => process.stdout.write(text));
  const stderr = run.stderr ?? ((text) => process.stderr.write(text));
  let settings: OperatorSettings;
  let imageProvider: ImageProvider | undefined;
  try {
    settings = compileOperatorSettings({ argv: run.argv, env: run.env });
    if (settings.buildPreprovImage) imageProvider = defaultImageProvider(run.env);
    const problems = settings.provisioner === 'ironic' ? ironicFileProblems(settings) : [];
    if (problems.length > 0) throw new ConfigError(problems);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (error.helpRequested) {
      stdout(`${error.message}\n`);
      return 0;
    }
    stderr(`${OPERATOR_NAME}: cannot start:\n${error.problems.map((problem) => `  ${problem}`).join('\n')}\n`);
    return 2;
  }

  const logger = createLogger({ level: settings.logLevel, defaultMeta: { component: OPERATOR_NAME }, format: settings.devLogging ? 'console' : 'json' });
  const signals = setupSignalHandler({ logger, ...(run.process ? { process: run.process } : {}) });
  try {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const manager = new Manager({
      name: OPERATOR_NAME, options: settings, kubeConfig: loadKubeConfig(settings.kubeconfig), registry, logger, metricsTlsPolicy: tlsPolicyOf(settings),
    });
    const provisioner = buildProvisioner(settings, { logger, registry, manager });
    setupBareMetalHostController(manager, {
      provisioner,
      settings: { maxProvisioningRetries: settings.maxProvisioningRetries, deletionTimeoutMs: settings.deletionTimeoutMs },
      provisioningLimit: settings.provisioningLimit,
      pollBounds: { shortMs: settings.ironicPollShortMs, longMs: Math.max(settings.ironicPollShortMs, settings.ironicPollLongMs) },
      maxConcurrentReconciles: settings.concurrency,
      hardwareLabels: settings.hardwareLabels,
      preprovisioningImages: settings.buildPreprovImage,
    });
    setupPreprovisioningImages(manager, { provider: imageProvider, concurrency: settings.concurrency, logger });
    setupHostFirmwareSettingsController(manager, { provisioner, maxConcurrentReconciles: settings.concurrency });
    setupHostFirmwareComponentsController(manager, { provisioner, maxConcurrentReconciles: settings.concurrency });
    setupDataImageController(manager, { provisioner, maxConcurrentReconciles: settings.concurrency });
    setupBMCEventSubscriptionController(manager, { provisioner, maxConcurrentReconciles: settings.concurrency });
    setupWebhooks(manager, settings, logger);
    if (settings.hostClaims) setupHostClaimController(manager, { maxConcurrentReconciles: settings.concurrency });
    const switchNames = switchSecretNames(settings);
    if (switchNames) setupBareMetalSwitchController(manager, { names: switchNames, maxConcurrentReconciles: settings.concurrency });
    logger.info('starting', {
      provisioner: settings.provisioner,
      watchNamespace: settings.watchNamespace ?? '(all)',
      concurrency: settings.concurrency,
      provisioningLimit: settings.provisioningLimit,
      hardwareLabels: settings.hardwareLabels,
      buildPreprovImage: settings.buildPreprovImage,
      hostClaims: settings.hostClaims,
      ironicNetworking: settings.ironicNetworkingEnabled,
    });
    await manager.start(signals.signal);
    return 0;
  } catch (error) {
    logger.error('operator failed', { error });
    return 1;
  } finally {
    signals.dispose();
  }
}

if (import.meta.main) {
  // Exit at once: after a lost leadership, reconciles abandoned mid-way must not go on calling Ironic.
  process.exit(await runOperator({ argv: process.argv.slice(2), env: process.env }));
}
