import { PROVIDER_CRD_SOURCES } from '../../capm3-provider/api/index.ts';
import type { KubectlTarget } from '../capi/crds.ts';
import { run } from './commands.ts';
import { waitUntil, type TrackedProcess } from './processes.ts';

export interface ProviderConversion {
  /** Points every provider CRD's conversion at the process and resolves once the API server uses it. */
  register(process: TrackedProcess): Promise<void>;
  /** Back to no conversion webhook (strategy None), so no request depends on a stopped process. */
  unregister(): Promise<void>;
}

const PROBE_CRD = 'metal3remediationtemplates.infrastructure.cluster.x-k8s.io';
const crdNames = PROVIDER_CRD_SOURCES.map((source) => `${source.plural}.${source.group}`)
  .sort((a, b) => Number(a === PROBE_CRD) - Number(b === PROBE_CRD));

async function patchCrd(target: KubectlTarget, name: string, conversion: unknown): Promise<void> {
  await run(target.kubectl, ['--kubeconfig', target.kubeconfig, 'patch', 'crd', name, '--type=merge', '-p', JSON.stringify({ spec: { conversion } })],
    { component: `${name} conversion` });
}

/**
 * The provider's /convert webhook on loopback for the CRDs deploy/capm3/default points at its
 * Service: by URL with the loopback CA. CRDs are cluster-wide, so while registered every v1beta1
 * request of any namespace goes to this process.
 */
export function providerConversion(options: { target: KubectlTarget; port: number; caPem: string; namespace: string }): ProviderConversion {
  const webhook = {
    strategy: 'Webhook',
    webhook: {
      conversionReviewVersions: ['v1'],
      clientConfig: { url: `https://127.0.0.1:${options.port}/convert`, caBundle: Buffer.from(options.caPem).toString('base64') },
    },
  };
  // The API server takes CRD changes in order: once the last one patched converts, all do.
  const probe = {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'Metal3RemediationTemplate',
    metadata: { name: 'conversion-probe', namespace: options.namespace },
    spec: { template: { spec: { strategy: { type: 'Reboot', timeout: '5m' } } } },
  };
  return {
    register: async (process) => {
      for (const name of crdNames) await patchCrd(options.target, name, webhook);
      await waitUntil(async () => {
        const output = await run(options.target.kubectl, ['--kubeconfig', options.target.kubeconfig, 'create', '--dry-run=server', '-o', 'json', '-f', '-'],
          { component: 'conversion probe', input: JSON.stringify(probe) }).catch(() => '{}');
        return output.includes('"timeout": "5m0s"');
      }, { what: 'the provider\'s conversion webhook in effect', timeoutMs: 60_000, intervalMs: 250, process });
    },
    unregister: async () => {
      for (const name of crdNames) await patchCrd(options.target, name, { strategy: 'None', webhook: null });
    },
  };
}
