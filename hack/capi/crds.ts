import { join } from 'node:path';
import { run } from '../stack/commands.ts';
import { buildClusterApi } from './build.ts';

export interface KubectlTarget {
  kubectl: string;
  kubeconfig: string;
}

/**
 * Applies the CRDs of some directories of the pinned Cluster API module and waits until the API
 * server serves them. Server-side apply: some are too large for client-side apply's
 * last-applied annotation. The bases carry no conversion webhook, so only v1beta2 (their
 * storage version) should be written. Returns the CRD names.
 */
async function applyModuleCrds(target: KubectlTarget, dirs: string[]): Promise<string[]> {
  const kubectl = (args: string[]) =>
    run(target.kubectl, ['--kubeconfig', target.kubeconfig, ...args], { component: 'cluster-api CRDs' });
  // Forcing conflicts: this pinned release is the authority on these CRDs, whoever applied them before.
  const applied = await kubectl(['apply', '--server-side', '--force-conflicts', '--field-manager=metal3-ts-capi',
    ...dirs.flatMap((dir) => ['-f', dir]), '-o', 'name']);
  const names = applied.split('\n').map((line) => line.trim()).filter(Boolean);
  await kubectl(['wait', '--for=condition=Established', '--timeout=60s', ...names]);
  return names.map((name) => name.replace(/^customresourcedefinition\.apiextensions\.k8s\.io\//, ''));
}

/** Core Cluster API's CRDs (the module's `core/config/crd/bases`). Returns the CRD names. */
export async function installClusterApiCrds(target: KubectlTarget): Promise<string[]> {
  return applyModuleCrds(target, [(await buildClusterApi()).crdDir]);
}

/**
 * The kubeadm bootstrap and control plane providers' CRDs (KubeadmConfig(Template),
 * KubeadmControlPlane(Template)), labelled with the contract versions they serve as the
 * providers' kustomizations label them: core Cluster API and the topology controller read a
 * reference's version from those labels. Returns the CRD names.
 */
export async function installKubeadmCrds(target: KubectlTarget): Promise<string[]> {
  const { moduleDir } = await buildClusterApi();
  const names = await applyModuleCrds(target, ['bootstrap', 'controlplane'].map((provider) => join(moduleDir, provider, 'kubeadm', 'config', 'crd', 'bases')));
  await run(target.kubectl, ['--kubeconfig', target.kubeconfig, 'label', '--overwrite', ...names.map((name) => `crd/${name}`),
    'cluster.x-k8s.io/v1beta1=v1beta1', 'cluster.x-k8s.io/v1beta2=v1beta2'], { component: 'cluster-api CRDs' });
  return names;
}
