import { KubeConfig } from '@kubernetes/client-node';

/** A kubeconfig from `path`, or client-node's default search (KUBECONFIG, in-cluster, ~/.kube/config). */
export function loadKubeConfig(path?: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (path) kubeConfig.loadFromFile(path);
  else kubeConfig.loadFromDefault();
  if (!kubeConfig.getCurrentCluster()) throw new Error('no Kubernetes cluster configured (set KUBECONFIG or run in-cluster)');
  return kubeConfig;
}
