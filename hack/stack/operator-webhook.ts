import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  applyWebhookConfigurations, deleteWebhookConfigurations, renderWebhookConfigurations, type WebhookConfiguration,
} from '../capi/webhook-configurations.ts';
import type { KubectlTarget } from '../capi/crds.ts';
import { generateServingCerts } from './certs.ts';
import { run } from './commands.ts';
import { repoRoot } from './paths.ts';
import { freePort } from './ports.ts';
import { waitUntil, type TrackedProcess } from './processes.ts';

/** The ValidatingWebhookConfiguration `deploy/` installs, read here so tests register exactly that. */
export const OPERATOR_WEBHOOK_MANIFESTS = join(repoRoot, 'deploy', 'operator', 'webhook', 'manifests.yaml');

export interface OperatorWebhookOptions {
  target: KubectlTarget;
  /** The certificates go in `<dir>/certs`. */
  dir: string;
  /** Names the configuration (cluster-scoped): unique among those registered at once. */
  name: string;
  /** Only objects in this namespace are sent to the webhook, so other tests' hosts are never refused. */
  namespace: string;
}

export interface OperatorWebhook {
  /** `--webhook-port`: a free loopback port. */
  port: number;
  /** `--webhook-cert-dir`: tls.crt and tls.key for 127.0.0.1. */
  certDir: string;
  /** What to add to the operator's environment. */
  operatorEnv: Record<string, string>;
  configurations: WebhookConfiguration[];
  /** Registers the configuration and resolves once the API server calls the webhook. */
  register(process: TrackedProcess): Promise<void>;
  /** Removes the configuration (failurePolicy Fail would refuse every host in the namespace without a server). */
  unregister(): Promise<void>;
}

/**
 * The operator's BareMetalHost webhook for an operator process on loopback: a serving
 * certificate from a throwaway CA, and deploy/'s configuration pointed at the process by URL
 * with that CA, scoped to one namespace.
 */
export async function prepareOperatorWebhook(options: OperatorWebhookOptions): Promise<OperatorWebhook> {
  const certDir = join(options.dir, 'certs');
  const certs = await generateServingCerts({ dir: certDir, commonName: options.name, certName: 'tls.crt', keyName: 'tls.key' });
  const port = await freePort();
  const configurations = renderWebhookConfigurations({
    manifestsPath: OPERATOR_WEBHOOK_MANIFESTS, name: options.name, baseUrl: `https://127.0.0.1:${port}`,
    caPem: readFileSync(certs.caCert, 'utf8'), namespace: options.namespace, labels: { 'metal3-ts/operator-webhook': options.name },
  });
  return {
    port,
    certDir,
    operatorEnv: { WEBHOOK_PORT: String(port), WEBHOOK_CERT_DIR: certDir },
    configurations,
    register: async (process) => {
      await applyWebhookConfigurations(options.target, configurations);
      await waitForHostWebhookInEffect({ target: options.target, namespace: options.namespace, process });
    },
    unregister: () => deleteWebhookConfigurations(options.target, configurations),
  };
}

/**
 * The API server picks up webhook configurations asynchronously: waits until a server-side dry
 * run of a host only the webhook refuses (a UUID name) is refused.
 */
async function waitForHostWebhookInEffect(options: { target: KubectlTarget; namespace: string; process: TrackedProcess }): Promise<void> {
  const probe = {
    apiVersion: 'metal3.io/v1alpha1',
    kind: 'BareMetalHost',
    metadata: { name: '00000000-0000-0000-0000-000000000000', namespace: options.namespace },
    spec: { online: false },
  };
  await waitUntil(async () => {
    try {
      await run(options.target.kubectl, ['--kubeconfig', options.target.kubeconfig, 'create', '--dry-run=server', '-f', '-'],
        { component: 'operator webhook', input: JSON.stringify(probe) });
      return false;
    } catch (error) {
      return (error as Error).message.includes('BareMetalHost resource name cannot be a UUID');
    }
  }, { what: 'BareMetalHost webhook in effect', timeoutMs: 60_000, intervalMs: 250, process: options.process });
}
