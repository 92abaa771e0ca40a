import { join } from 'node:path';
import { installClusterApiCrds } from '../../hack/capi/index.ts';
import { repoRoot } from '../../hack/stack/paths.ts';
import type { Kubectl } from './kubectl.ts';
import type { StackEnv } from './stack-env.ts';

/** The ipam.metal3.io CRDs and core Cluster API's (its IPAM contract kinds among them), all Established. */
export async function installIpamCrds(kubectl: Kubectl, env: Pick<StackEnv, 'kubectl' | 'kubeconfig'>): Promise<void> {
  await installClusterApiCrds({ kubectl: env.kubectl, kubeconfig: env.kubeconfig });
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy/ipam/crds')]);
  await kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s',
    'crd/ippools.ipam.metal3.io', 'crd/ipclaims.ipam.metal3.io', 'crd/ipaddresses.ipam.metal3.io',
    'crd/ipaddressclaims.ipam.cluster.x-k8s.io', 'crd/ipaddresses.ipam.cluster.x-k8s.io']);
}
