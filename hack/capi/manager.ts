import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateServingCerts } from '../stack/certs.ts';
import { freePorts } from '../stack/ports.ts';
import { startProcess, stopProcess, waitUntil, type ProcessSpec, type TrackedProcess } from '../stack/processes.ts';
import type { StackEnv } from '../stack/state.ts';
import { buildClusterApi, type ClusterApiComponent } from './build.ts';
import {
  applyWebhookConfigurations, deleteWebhookConfigurations, renderWebhookConfigurations, type WebhookConfiguration,
} from './webhook-configurations.ts';
import { fenceManager } from './watch-filter-fence.ts';
import { waitForWebhooksInEffect } from './webhook-probe.ts';

export interface ClusterApiManagerOptions {
  env: Pick<StackEnv, 'kubectl' | 'kubeconfig'>;
  /** Which manager: core Cluster API (the default), or the kubeadm bootstrap or control plane provider. */
  component?: ClusterApiComponent;
  /** `--feature-gates`, e.g. `{ ClusterTopology: true }` for ClusterClass. */
  featureGates?: Record<string, boolean>;
  /** Certificates and the log (`<stateDir>/logs/<prefix>-<label>.log`; capi, cabpk or kcp) go here. */
  stateDir: string;
  /**
   * Scope to one namespace: its webhooks only see objects there, and the controllers only
   * objects labelled `cluster.x-k8s.io/watch-filter: <namespace>` (unless `watchFilter` says
   * otherwise); a scoped manager may not write objects labelled for another filter
   * (watch-filter-fence.ts). Not `--namespace`: in v1.14.2 that flag breaks the
   * MachineDeployment and MachineSet controllers (hack/capi/README.md).
   */
  namespace?: string;
  /** `--watch-filter`: only objects labelled `cluster.x-k8s.io/watch-filter: <value>` are reconciled. */
  watchFilter?: string;
  /** Names the process, its log and its webhook configurations; unique among running managers. */
  label: string;
}

export interface ClusterApiManager {
  process: TrackedProcess;
  spec: ProcessSpec;
  webhookUrl: string;
  healthUrl: string;
  /** Metrics and pprof, plain HTTP (`--insecure-diagnostics`). */
  diagnosticsUrl: string;
  webhookConfigurations: { kind: string; name: string }[];
  /** The kubeconfig it runs with: a scoped manager's own user (watch-filter-fence.ts), else the admin's. */
  kubeconfig: string;
  /** Labels a Cluster API object (and a MachineDeployment's template) must carry to be reconciled; {} if unfiltered. */
  watchLabels: Record<string, string>;
  /** Deletes the webhook configurations first (failurePolicy Fail would block every write), then stops the process. */
  stop(): Promise<void>;
}

/** Process and webhook configuration names start with this, so two managers of one label never clash. */
const NAME_PREFIX: Record<ClusterApiComponent, string> = { core: 'capi', 'kubeadm-bootstrap': 'cabpk', 'kubeadm-control-plane': 'kcp' };

/**
 * One of Cluster API's managers (controllers and webhooks) against the stack's API server, its
 * webhooks registered by URL with a CA made for it. Expects the CRDs to be installed
 * (installClusterApiCrds, installKubeadmCrds). Resolves once it is healthy and the API server
 * calls its webhooks.
 */
export async function startClusterApiManager(options: ClusterApiManagerOptions): Promise<ClusterApiManager> {
  const component = options.component ?? 'core';
  const name = `${NAME_PREFIX[component]}-${options.label.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`;
  const build = (await buildClusterApi()).components[component];
  const featureGates = Object.entries(options.featureGates ?? {}).map(([gate, on]) => `${gate}=${String(on)}`);
  const dir = join(options.stateDir, 'capi', name);
  const logDir = join(options.stateDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  // tls.crt / tls.key: the names the manager's --webhook-cert-dir is read with by default.
  const certs = await generateServingCerts({ dir: join(dir, 'certs'), commonName: name, certName: 'tls.crt', keyName: 'tls.key' });
  const watchFilter = options.watchFilter ?? options.namespace;
  const target = { kubectl: options.env.kubectl, kubeconfig: options.env.kubeconfig };
  let kubeconfig = options.env.kubeconfig;
  if (watchFilter) {
    kubeconfig = join(dir, 'kubeconfig');
    await fenceManager(target, { watchFilter, path: kubeconfig });
  }
  const [webhookPort, healthPort, diagnosticsPort] = (await freePorts(3)) as [number, number, number];
  const spec: ProcessSpec = {
    name,
    command: build.manager,
    args: [
      `--kubeconfig=${kubeconfig}`,
      `--webhook-cert-dir=${join(dir, 'certs')}`,
      `--webhook-port=${webhookPort}`,
      `--health-addr=127.0.0.1:${healthPort}`,
      `--diagnostics-address=127.0.0.1:${diagnosticsPort}`,
      '--insecure-diagnostics',
      ...(watchFilter ? [`--watch-filter=${watchFilter}`] : []),
      ...(featureGates.length > 0 ? [`--feature-gates=${featureGates.join(',')}`] : []),
      // The CRD migrator rewrites every stored object of its kinds, in every namespace, when a CRD's
      // storage version changes; the stack only ever stored v1beta2, and other tests' objects stay untouched.
      '--skip-crd-migration-phases=StorageVersionMigration,CleanupManagedFields',
    ],
    logPath: join(logDir, `${name}.log`),
  };
  const webhookUrl = `https://127.0.0.1:${webhookPort}`;
  const configurations: WebhookConfiguration[] = renderWebhookConfigurations({
    manifestsPath: build.webhookManifests, name, baseUrl: webhookUrl, caPem: readFileSync(certs.caCert, 'utf8'),
    ...(options.namespace ? { namespace: options.namespace } : {}),
    ...(watchFilter ? { watchFilter } : {}),
  });
  const started = startProcess(spec);
  const stop = async () => {
    await deleteWebhookConfigurations(target, configurations);
    await stopProcess(started, { graceMs: 20_000 });
  };
  const healthUrl = `http://127.0.0.1:${healthPort}`;
  try {
    for (const path of ['/healthz', '/readyz']) {
      await waitUntil(async () => (await fetch(`${healthUrl}${path}`)).ok,
        { what: `${name} ${path}`, timeoutMs: 120_000, intervalMs: 250, process: started });
    }
    await applyWebhookConfigurations(target, configurations);
    await waitForWebhooksInEffect({ component, target, namespace: options.namespace ?? 'default', process: started });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    process: started,
    spec,
    webhookUrl,
    healthUrl,
    diagnosticsUrl: `http://127.0.0.1:${diagnosticsPort}`,
    webhookConfigurations: configurations.map((entry) => ({ kind: entry.kind, name: entry.metadata.name })),
    kubeconfig,
    watchLabels: watchFilter ? { 'cluster.x-k8s.io/watch-filter': watchFilter } : {},
    stop,
  };
}
