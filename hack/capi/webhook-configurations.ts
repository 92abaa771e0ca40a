import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { run } from '../stack/commands.ts';
import type { KubectlTarget } from './crds.ts';

// Only what we rewrite is checked; every other field of each webhook passes through untouched.
const webhook = z.looseObject({
  name: z.string(),
  clientConfig: z.object({ service: z.object({ path: z.string().startsWith('/') }) }),
});
const configuration = z.looseObject({
  apiVersion: z.literal('admissionregistration.k8s.io/v1'),
  kind: z.enum(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']),
  metadata: z.object({ name: z.string() }),
  webhooks: z.array(webhook).min(1),
});

/** A configuration as registered: each webhook's clientConfig is a URL and a CA bundle. */
export interface WebhookConfiguration {
  apiVersion: 'admissionregistration.k8s.io/v1';
  kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';
  metadata: { name: string; labels: Record<string, string> };
  webhooks: ({ name: string; clientConfig: { url: string; caBundle: string } } & Record<string, unknown>)[];
}

export interface RenderWebhooksOptions {
  /** The module's `core/config/webhook/manifests.yaml`. */
  manifestsPath: string;
  /** Unique per manager: configurations are cluster-scoped and named after it. */
  name: string;
  /** Where the manager's webhook server listens, e.g. https://127.0.0.1:9443. */
  baseUrl: string;
  /** PEM of the CA that signed the webhook serving certificate. */
  caPem: string;
  /** When set, only objects in this namespace are sent to this manager's webhooks. */
  namespace?: string;
  /**
   * When set, cluster-scoped ExtensionConfigs reach this manager's webhooks only when labelled
   * `cluster.x-k8s.io/watch-filter: <watchFilter>` (its controllers' filter): a namespaceSelector
   * never skips a cluster-scoped object, and a manager without the RuntimeSDK gate refuses every
   * ExtensionConfig, so another test's manager would refuse this one's.
   */
  watchFilter?: string;
  /** Labels of the rendered configurations; default `metal3-ts/capi-manager: <name>`. */
  labels?: Record<string, string>;
}

const WATCH_FILTER_LABEL = 'cluster.x-k8s.io/watch-filter';

function admitsExtensionConfigs(entry: Record<string, unknown>): boolean {
  const rules = (entry.rules ?? []) as { resources?: string[] }[];
  return rules.some((rule) => rule.resources?.includes('extensionconfigs') === true);
}

/**
 * Cluster API's webhook configurations, pointed at a manager on loopback by URL instead of
 * an in-cluster Service, with the CA the API server must trust. Namespace-scoped managers get
 * a namespaceSelector, so objects of other tests are neither defaulted nor validated by them.
 */
export function renderWebhookConfigurations(options: RenderWebhooksOptions): WebhookConfiguration[] {
  const caBundle = Buffer.from(options.caPem).toString('base64');
  const documents = parseAllDocuments(readFileSync(options.manifestsPath, 'utf8'))
    .map((document) => document.toJS() as unknown)
    .filter((value) => value !== null);
  return documents.map((value) => {
    const parsed = configuration.parse(value);
    const suffix = parsed.kind === 'MutatingWebhookConfiguration' ? 'mutating' : 'validating';
    return {
      ...parsed,
      metadata: { name: `${options.name}-${suffix}`, labels: options.labels ?? { 'metal3-ts/capi-manager': options.name } },
      webhooks: parsed.webhooks.map((entry) => ({
        ...entry,
        clientConfig: { url: `${options.baseUrl}${entry.clientConfig.service.path}`, caBundle },
        ...(options.namespace
          ? { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': options.namespace } } }
          : {}),
        ...(options.watchFilter && admitsExtensionConfigs(entry)
          ? { objectSelector: { matchLabels: { [WATCH_FILTER_LABEL]: options.watchFilter } } }
          : {}),
      })),
    };
  });
}

export async function applyWebhookConfigurations(target: KubectlTarget, configurations: WebhookConfiguration[]): Promise<void> {
  const input = configurations.map((entry) => JSON.stringify(entry)).join('\n---\n');
  await run(target.kubectl, ['--kubeconfig', target.kubeconfig, 'apply', '--server-side', '--force-conflicts',
    '--field-manager=metal3-ts-capi', '-f', '-'], { component: 'cluster-api webhooks', input });
}

export async function deleteWebhookConfigurations(target: KubectlTarget, configurations: WebhookConfiguration[]): Promise<void> {
  const names = configurations.map((entry) => `${entry.kind.toLowerCase()}/${entry.metadata.name}`);
  await run(target.kubectl, ['--kubeconfig', target.kubeconfig, 'delete', '--ignore-not-found', '--wait=false', ...names],
    { component: 'cluster-api webhooks' });
}
