import { readFileSync } from 'node:fs';
import type { StackEnv } from '../stack/state.ts';

export interface KubeconfigSecret {
  apiVersion: 'v1';
  kind: 'Secret';
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  type: 'cluster.x-k8s.io/secret';
  stringData: { value: string };
}

/**
 * The `<cluster>-kubeconfig` Secret through which Cluster API (its cluster cache, hence Node
 * look-ups by providerID) reaches the stack's workload API server. A control plane provider
 * would normally write it; with none, the Cluster controller would generate one from a
 * `<cluster>-ca` Secret, so creating this first is what points Cluster API at our server.
 */
export function workloadKubeconfigSecret(env: Pick<StackEnv, 'workload'>, clusterName: string, namespace: string): KubeconfigSecret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `${clusterName}-kubeconfig`, namespace, labels: { 'cluster.x-k8s.io/cluster-name': clusterName } },
    type: 'cluster.x-k8s.io/secret',
    stringData: { value: readFileSync(env.workload.kubeconfig, 'utf8') },
  };
}
