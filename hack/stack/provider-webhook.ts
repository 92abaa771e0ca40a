import { join } from 'node:path';
import type { KubectlTarget } from '../capi/crds.ts';
import { prepareLoopbackWebhook, type LoopbackWebhook } from './loopback-webhook.ts';
import { repoRoot } from './paths.ts';

/** The mutating and validating configurations `deploy/capm3` installs, read here so tests register exactly those. */
export const PROVIDER_WEBHOOK_MANIFESTS = join(repoRoot, 'deploy', 'capm3', 'webhook', 'manifests.yaml');

export interface ProviderWebhook extends LoopbackWebhook {
  /** What to add to the provider's environment. */
  providerEnv: Record<string, string>;
}

/** CAPM3's webhooks for a provider process on loopback; in effect once a Metal3Cluster without an endpoint host is refused. */
export async function prepareProviderWebhook(options: { target: KubectlTarget; dir: string; name: string; namespace: string }): Promise<ProviderWebhook> {
  const webhook = await prepareLoopbackWebhook({
    ...options,
    manifestsPath: PROVIDER_WEBHOOK_MANIFESTS,
    labels: { 'metal3-ts/provider-webhook': options.name },
    probe: {
      object: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3Cluster',
        metadata: { name: 'webhook-probe', namespace: options.namespace }, spec: {},
      },
      refusal: 'spec.controlPlaneEndpoint: Invalid value',
    },
  });
  return { ...webhook, providerEnv: { CAPM3_WEBHOOK_PORT: String(webhook.port), CAPM3_WEBHOOK_CERT_DIR: webhook.certDir } };
}
