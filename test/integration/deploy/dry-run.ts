import { stringify } from 'yaml';
import type { Manifest } from '../../../hack/stack/kustomize.ts';
import type { Kubectl } from '../../support/kubectl.ts';

/** `kubectl apply --server-side --dry-run=server` of rendered objects; the names the API server accepted. */
export async function dryRunApply(kubectl: Kubectl, objects: Manifest[]): Promise<string[]> {
  const out = await kubectl.ok(
    ['apply', '--server-side', '--force-conflicts', '--field-manager=deploy-test', '--dry-run=server', '-o', 'name', '-f', '-'],
    objects.map((object) => stringify(object)).join('---\n'),
  );
  return out.trim().split('\n');
}

/** Kinds whose CRDs the test API server does not have (cert-manager's, prometheus-operator's): checked by structure only. */
export const isCertManagerObject = (object: Manifest) => object.apiVersion.startsWith('cert-manager.io/');
export const isPrometheusOperatorObject = (object: Manifest) => object.apiVersion.startsWith('monitoring.coreos.com/');
