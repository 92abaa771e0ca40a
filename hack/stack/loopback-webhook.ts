import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  applyWebhookConfigurations, deleteWebhookConfigurations, renderWebhookConfigurations, type WebhookConfiguration,
} from '../capi/webhook-configurations.ts';
import type { KubectlTarget } from '../capi/crds.ts';
import { generateServingCerts } from './certs.ts';
import { run } from './commands.ts';
import { freePort } from './ports.ts';
import { waitUntil, type TrackedProcess } from './processes.ts';

export interface LoopbackWebhookOptions {
  target: KubectlTarget;
  /** deploy/'s webhook configurations, registered as they are apart from where they point. */
  manifestsPath: string;
  /** The certificates go in `<dir>/certs`. */
  dir: string;
  /** Names the configurations (cluster-scoped): unique among those registered at once. */
  name: string;
  /** Only objects in this namespace are sent to the webhooks, so other tests' objects are never refused. */
  namespace: string;
  labels: Record<string, string>;
  /** An object only the webhooks refuse, with words of the refusal: a server-side dry run of it shows when they are in effect. */
  probe: { object: Record<string, unknown>; refusal: string };
}

export interface LoopbackWebhook {
  /** `--webhook-port`: a free loopback port. */
  port: number;
  /** `--webhook-cert-dir`: tls.crt and tls.key for 127.0.0.1. */
  certDir: string;
  /** The throwaway CA that signed them, for any other configuration pointing at the process. */
  caPem: string;
  configurations: WebhookConfiguration[];
  /** Registers the configurations and resolves once the API server calls the webhooks. */
  register(process: TrackedProcess): Promise<void>;
  /** Removes the configurations (failurePolicy Fail would refuse every object in the namespace without a server). */
  unregister(): Promise<void>;
}

/**
 * A controller's webhooks served on loopback: a serving certificate from a throwaway CA, and
 * deploy/'s configurations pointed at the process by URL with that CA, scoped to one namespace.
 */
export async function prepareLoopbackWebhook(options: LoopbackWebhookOptions): Promise<LoopbackWebhook> {
  const certDir = join(options.dir, 'certs');
  const certs = await generateServingCerts({ dir: certDir, commonName: options.name, certName: 'tls.crt', keyName: 'tls.key' });
  const port = await freePort();
  const caPem = readFileSync(certs.caCert, 'utf8');
  const configurations = renderWebhookConfigurations({
    manifestsPath: options.manifestsPath, name: options.name, baseUrl: `https://127.0.0.1:${port}`,
    caPem, namespace: options.namespace, labels: options.labels,
  });
  return {
    port,
    certDir,
    caPem,
    configurations,
    register: async (process) => {
      await applyWebhookConfigurations(options.target, configurations);
      await waitForRefusal({ target: options.target, probe: options.probe, process });
    },
    unregister: () => deleteWebhookConfigurations(options.target, configurations),
  };
}

/** The API server picks up webhook configurations asynchronously: waits until a server-side dry run of the probe is refused. */
async function waitForRefusal(options: { target: KubectlTarget; probe: LoopbackWebhookOptions['probe']; process: TrackedProcess }): Promise<void> {
  const kind = String(options.probe.object.kind);
  await waitUntil(async () => {
    try {
      await run(options.target.kubectl, ['--kubeconfig', options.target.kubeconfig, 'create', '--dry-run=server', '-f', '-'],
        { component: `${kind} webhook`, input: JSON.stringify(options.probe.object) });
      return false;
    } catch (error) {
      return (error as Error).message.includes(options.probe.refusal);
    }
  }, { what: `${kind} webhook in effect`, timeoutMs: 60_000, intervalMs: 250, process: options.process });
}
