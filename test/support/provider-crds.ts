import { join } from 'node:path';
import { installClusterApiCrds, installKubeadmCrds } from '../../hack/capi/index.ts';
import { repoRoot } from '../../hack/stack/paths.ts';
import type { Kubectl } from './kubectl.ts';
import type { StackEnv } from './stack-env.ts';

/** BareMetalHost, provider, core Cluster API and its kubeadm providers' CRDs on the test API server, all Established. */
export async function installProviderCrds(kubectl: Kubectl, env: Pick<StackEnv, 'kubectl' | 'kubeconfig'>): Promise<void> {
  await installClusterApiCrds({ kubectl: env.kubectl, kubeconfig: env.kubeconfig });
  await installKubeadmCrds({ kubectl: env.kubectl, kubeconfig: env.kubeconfig });
  for (const dir of ['deploy/crds', 'deploy/capm3/crds']) {
    await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, dir)]);
  }
  await kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s',
    'crd/baremetalhosts.metal3.io', 'crd/metal3machines.infrastructure.cluster.x-k8s.io', 'crd/metal3clusters.infrastructure.cluster.x-k8s.io',
    'crd/metal3machinetemplates.infrastructure.cluster.x-k8s.io', 'crd/metal3clustertemplates.infrastructure.cluster.x-k8s.io',
    'crd/metal3datatemplates.infrastructure.cluster.x-k8s.io', 'crd/metal3dataclaims.infrastructure.cluster.x-k8s.io',
    'crd/metal3datas.infrastructure.cluster.x-k8s.io']);
}
