import { join } from 'node:path';
import type { KubectlTarget } from '../capi/crds.ts';
import { prepareLoopbackWebhook, type LoopbackWebhook } from './loopback-webhook.ts';
import { repoRoot } from './paths.ts';

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

export interface OperatorWebhook extends LoopbackWebhook {
  /** What to add to the operator's environment. */
  operatorEnv: Record<string, string>;
}

/** The operator's webhooks for an operator process on loopback; in effect once a host with a UUID name is refused. */
export async function prepareOperatorWebhook(options: OperatorWebhookOptions): Promise<OperatorWebhook> {
  const webhook = await prepareLoopbackWebhook({
    ...options,
    manifestsPath: OPERATOR_WEBHOOK_MANIFESTS,
    labels: { 'metal3-ts/operator-webhook': options.name },
    probe: {
      object: {
        apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost',
        metadata: { name: '00000000-0000-0000-0000-000000000000', namespace: options.namespace }, spec: { online: false },
      },
      refusal: 'BareMetalHost resource name cannot be a UUID',
    },
  });
  return { ...webhook, operatorEnv: { WEBHOOK_PORT: String(webhook.port), WEBHOOK_CERT_DIR: webhook.certDir } };
}
