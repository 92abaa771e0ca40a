// Core Cluster API in the local stack: build, CRDs, the manager with its webhooks, and the
// workload cluster's kubeconfig Secret. Used by tests and the dev command.
export { buildClusterApi, type ClusterApiBuild, type ClusterApiComponent } from './build.ts';
export { runClusterctl, startClusterctl, type ClusterctlRun } from './clusterctl.ts';
export { installClusterApiCrds, installKubeadmCrds, type KubectlTarget } from './crds.ts';
export { startClusterApiManager, type ClusterApiManager, type ClusterApiManagerOptions } from './manager.ts';
export { workloadKubeconfigSecret, type KubeconfigSecret } from './kubeconfig-secret.ts';
