import { describe, expect, it } from '@jest/globals';
import { clusterSchema } from '../../api/index.ts';
import {
  infrastructureClusterName, isExternallyManaged, isPaused, machinesOfCluster, metal3ClustersOwnedBy, ownerClusterRef,
} from './cluster-links.ts';

const owner = (kind: string, apiVersion: string, name = 'c1') => ({ apiVersion, kind, name, uid: `uid-${name}` });
const cluster = (spec: Record<string, unknown>) => clusterSchema.parse({ metadata: { name: 'c1', namespace: 'ns' }, spec });

describe('Metal3Cluster links', () => {
  it('finds only a Cluster API Cluster owner', () => {
    expect(ownerClusterRef({ metadata: { ownerReferences: [owner('Cluster', 'cluster.x-k8s.io/v1beta2')] } })?.name).toBe('c1');
    expect(ownerClusterRef({ metadata: { ownerReferences: [owner('Cluster', 'example.com/v1')] } })).toBeUndefined();
    expect(ownerClusterRef({ metadata: { ownerReferences: [owner('Machine', 'cluster.x-k8s.io/v1beta2')] } })).toBeUndefined();
    expect(ownerClusterRef({ metadata: {} })).toBeUndefined();
  });

  it('treats any managed-by value as externally managed', () => {
    expect(isExternallyManaged({ metadata: { annotations: { 'cluster.x-k8s.io/managed-by': '' } } })).toBe(true);
    expect(isExternallyManaged({ metadata: { annotations: { other: 'x' } } })).toBe(false);
  });

  it('is paused by the Cluster or by its own annotation', () => {
    const m3c = { metadata: {} };
    expect(isPaused(cluster({ paused: true }), m3c)).toBe(true);
    expect(isPaused(cluster({}), { metadata: { annotations: { 'cluster.x-k8s.io/paused': '' } } })).toBe(true);
    expect(isPaused(undefined, { metadata: { annotations: { 'cluster.x-k8s.io/paused': 'true' } } })).toBe(true);
    expect(isPaused(cluster({ paused: false }), m3c)).toBe(false);
    expect(isPaused(undefined, m3c)).toBe(false);
  });

  it('follows a Cluster infrastructureRef only to a Metal3Cluster', () => {
    expect(infrastructureClusterName(cluster({ infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3Cluster', name: 'm' } }))).toBe('m');
    expect(infrastructureClusterName(cluster({ infrastructureRef: { kind: 'Metal3Cluster', name: 'm' } }))).toBe('m');
    expect(infrastructureClusterName(cluster({ infrastructureRef: { apiGroup: 'other.io', kind: 'Metal3Cluster', name: 'm' } }))).toBeUndefined();
    expect(infrastructureClusterName(cluster({ infrastructureRef: { kind: 'DockerCluster', name: 'm' } }))).toBeUndefined();
    expect(infrastructureClusterName(cluster({}))).toBeUndefined();
  });

  it('selects Metal3Clusters by owner and Machines by cluster label', () => {
    const m3cs = [
      { metadata: { name: 'a', ownerReferences: [owner('Cluster', 'cluster.x-k8s.io/v1beta2', 'c1')] } },
      { metadata: { name: 'b', ownerReferences: [owner('Cluster', 'cluster.x-k8s.io/v1beta2', 'c2')] } },
      { metadata: { name: 'c' } },
    ];
    expect(metal3ClustersOwnedBy(m3cs, 'c1').map((m) => m.metadata.name)).toEqual(['a']);
    const machines = [
      { metadata: { name: 'm1', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } } },
      { metadata: { name: 'm2', labels: { 'cluster.x-k8s.io/cluster-name': 'c2' } } },
      { metadata: { name: 'm3' } },
    ];
    expect(machinesOfCluster(machines, 'c1').map((m) => m.metadata.name)).toEqual(['m1']);
  });
});
