// The provider's composition root: settings, logger, Kubernetes clients and the controllers
// are built here, once, and passed down.
import { Registry, collectDefaultMetrics } from 'prom-client';
import { ConfigError, Manager, SecretResource, WebhookServer, createLogger, loadKubeConfig, setupSignalHandler } from '../operator/runtime/index.ts';
import type { Logger, SignalProcess, TlsPolicy } from '../operator/runtime/index.ts';
import { setupMetal3ClusterController } from './controllers/metal3cluster/controller.ts';
import { setupMetal3DataController } from './controllers/metal3data/controller.ts';
import { setupMetal3DataTemplateController } from './controllers/metal3datatemplate/controller.ts';
import { setupMetal3LabelSyncController } from './controllers/metal3labelsync/controller.ts';
import { setupMetal3MachineController } from './controllers/metal3machine/controller.ts';
import { setupMetal3MachineTemplateController } from './controllers/metal3machinetemplate/controller.ts';
import { setupMetal3RemediationController } from './controllers/metal3remediation/controller.ts';
import { managementNodeRemoval } from './controllers/metal3remediation/node-removal.ts';
import { WorkloadClusters } from './remote/workload-clusters.ts';
import { PROVIDER_NAME, compileProviderSettings } from './settings.ts';
import type { ProviderSettings } from './settings.ts';
import { watchFilterFor } from './watch-filter.ts';
import { CONVERSION_PATH, conversionHandler, providerWebhookHandlers } from './webhooks/index.ts';

/** How often a remediation looks at host power and the workload Node while it waits for them. */
const REMEDIATION_POLL_MS = 2_000;

export interface ProviderRun {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  process?: SignalProcess;
}

/** Cluster API's --tls-* flags, which the webhook and diagnostics servers both follow. */
function tlsPolicyOf(settings: ProviderSettings): TlsPolicy {
  return {
    minVersion: settings.tlsMinVersion,
    maxVersion: 'TLSv1.3',
    ...(settings.tlsCipherSuites ? { ciphers: settings.tlsCipherSuites.ciphers } : {}),
    ...(settings.tlsCurvePreferences ? { ecdhCurve: settings.tlsCurvePreferences } : {}),
  };
}

/** CAPM3's defaulting, validating and conversion webhooks, unless --webhook-port=0; a server that cannot start fails /readyz, not the provider. */
function setupWebhooks(manager: Manager, settings: ProviderSettings, logger: Logger): void {
  if (settings.webhookPort === 0) {
    logger.info('webhook server disabled (--webhook-port=0)');
    return;
  }
  for (const cipher of settings.tlsCipherSuites?.insecure ?? []) logger.warn('use of insecure cipher detected', { cipher });
  const server = new WebhookServer({
    port: settings.webhookPort,
    certDir: settings.webhookCertDir,
    ...tlsPolicyOf(settings),
    handlers: providerWebhookHandlers({ logger }),
    conversionHandlers: { [CONVERSION_PATH]: conversionHandler({ logger: logger.child({ webhook: 'conversion' }) }) },
    logger,
  });
  manager.add(server);
  manager.addReadyzCheck('webhook', server.readyCheck);
}

/** CAPM3's flags this provider takes but does not act on, said once at start. */
function logUnservedFlags(settings: ProviderSettings, logger: Logger): void {
  const unused = {
    '--vmodule': settings.vmodule, '--log-flush-frequency': settings.logFlushFrequency, '--log-json-split-stream': settings.logJsonSplitStream,
    '--log-json-info-buffer-size': settings.logJsonInfoBufferSize, '--log-text-split-stream': settings.logTextSplitStream,
    '--log-text-info-buffer-size': settings.logTextInfoBufferSize,
  };
  const given = Object.entries(unused).filter(([, value]) => value !== undefined).map(([flag]) => flag);
  if (given.length) logger.info('Kubernetes logging flags accepted but not acted on', { flags: given });
}

/** Runs the provider until SIGTERM/SIGINT; resolves to the process exit code. */
export async function runProvider(run: ProviderRun): Promise<number> {
  const stdout = run.stdout ?? ((text) => process.stdout.write(text));
  const stderr = run.stderr ?? ((text) => process.stderr.write(text));
  let settings: ProviderSettings;
  try {
    settings = compileProviderSettings({ argv: run.argv, env: run.env });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (error.helpRequested) {
      stdout(`${error.message}\n`);
      return 0;
    }
    stderr(`${PROVIDER_NAME}: cannot start:\n${error.problems.map((problem) => `  ${problem}`).join('\n')}\n`);
    return 2;
  }
  const logger = createLogger({
    // CAPM3 logs its debug lines at verbosity 4.
    level: settings.verbosity !== undefined && settings.verbosity >= 4 ? 'debug' : settings.logLevel,
    defaultMeta: { component: PROVIDER_NAME },
    format: settings.loggingFormat === 'text' ? 'console' : 'json',
  });
  const signals = setupSignalHandler({ logger, ...(run.process ? { process: run.process } : {}) });
  try {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const manager = new Manager({
      name: PROVIDER_NAME, options: settings, kubeConfig: loadKubeConfig(settings.kubeconfig), registry, logger, metricsTlsPolicy: tlsPolicyOf(settings),
    });
    const watchFilter = watchFilterFor(settings.watchFilter);
    const workloadClusters = new WorkloadClusters({
      secrets: manager.client(SecretResource), userAgent: manager.name,
      rateLimit: { qps: settings.clusterCacheClientQps, burst: settings.clusterCacheClientBurst },
    });
    logUnservedFlags(settings, logger);
    setupWebhooks(manager, settings, logger);
    setupMetal3MachineController(manager, {
      maxConcurrentReconciles: settings.metal3MachineConcurrency,
      workloadClusters,
      fastTrack: settings.fastTrack,
      requeueAfterMs: settings.requeueAfterMs,
      ...(watchFilter ? { watchFilter } : {}),
    });
    setupMetal3ClusterController(manager, { maxConcurrentReconciles: settings.metal3ClusterConcurrency, requeueAfterMs: settings.requeueAfterMs, ...(watchFilter ? { watchFilter } : {}) });
    // As CAPM3: --watch-filter limits the Machine, Cluster and Data controllers, not the template, remediation and label sync ones.
    setupMetal3MachineTemplateController(manager, { maxConcurrentReconciles: settings.metal3MachineTemplateConcurrency });
    setupMetal3RemediationController(manager, {
      maxConcurrentReconciles: settings.metal3RemediationConcurrency,
      workloadClusters,
      // Power and the workload Node are polled while waiting; never slower than the general requeue.
      pollMs: Math.min(REMEDIATION_POLL_MS, settings.requeueAfterMs),
      nodeRemoval: await managementNodeRemoval(manager.transport, logger),
    });
    setupMetal3DataTemplateController(manager, {
      maxConcurrentReconciles: settings.metal3DataTemplateConcurrency, requeueAfterMs: settings.requeueAfterMs, ...(watchFilter ? { watchFilter } : {}),
    });
    setupMetal3LabelSyncController(manager, {
      maxConcurrentReconciles: settings.metal3LabelSyncConcurrency, requeueAfterMs: settings.requeueAfterMs, workloadClusters,
    });
    setupMetal3DataController(manager, {
      maxConcurrentReconciles: settings.metal3DataConcurrency, requeueAfterMs: settings.requeueAfterMs,
      bmhNameBasedPreallocation: settings.bmhNameBasedPreallocation, ...(watchFilter ? { watchFilter } : {}),
    });
    logger.info('starting', { namespace: settings.watchNamespace ?? '(all)', watchFilter: settings.watchFilter ?? '(none)' });
    await manager.start(signals.signal);
    return 0;
  } catch (error) {
    logger.error('provider failed', { error });
    return 1;
  } finally {
    signals.dispose();
  }
}

if (import.meta.main) {
  // Exit at once, as the operator does: after a lost leadership nothing of this replica may go on.
  process.exit(await runProvider({ argv: process.argv.slice(2), env: process.env }));
}
