import { describe, expect, it } from '@jest/globals';
import type { KubeObject, ResourceClient } from '../../operator/runtime/index.ts';
import type { Machine } from '../api/index.ts';
import { reuseOwner } from './reuse-owner.ts';

const NAMESPACE = 'metal3';

const workerMachine = {
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Machine',
  metadata: {
    namespace: NAMESPACE,
    name: 'workers-abc-1',
    ownerReferences: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineSet', name: 'workers-abc', uid: 'set-uid' }],
  },
  spec: { clusterName: 'dev' },
} as unknown as Machine;

const machineSet: KubeObject = {
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'MachineSet',
  metadata: {
    namespace: NAMESPACE, name: 'workers-abc', uid: 'set-uid',
    ownerReferences: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', name: 'workers', uid: 'md-uid' }],
  },
  spec: { template: { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3MachineTemplate', name: 'workers-v2' } } } },
} as KubeObject;

const apiError = (code: number, reason: string) => Object.assign(new Error(reason), { status: code, code, reason });

const clientOf = (answer: () => Promise<KubeObject>): ResourceClient<KubeObject> => ({ get: answer }) as unknown as ResourceClient<KubeObject>;
const noControlPlane = () => clientOf(async () => Promise.reject(new Error('no control plane expected')));
const withMachineSet = (answer: () => Promise<KubeObject>) => ({ machineSets: clientOf(answer), controlPlanes: noControlPlane });
const labelOf = async (machine: Machine, clients: Parameters<typeof reuseOwner>[1]) => (await reuseOwner(machine, clients))?.labelValue;

describe('reuseOwner', () => {
  it('names the MachineDeployment that owns the Machine\'s MachineSet, and the template that MachineSet makes Machines from', async () => {
    const owner = await reuseOwner(workerMachine, withMachineSet(async () => machineSet));
    expect(owner?.labelValue).toBe('md-workers');
    await expect(owner?.template()).resolves.toEqual({ name: 'workers-v2', namespace: NAMESPACE });
  });

  it('gives none when the MachineSet is gone, or is another object of the same name', async () => {
    await expect(labelOf(workerMachine, withMachineSet(async () => Promise.reject(apiError(404, 'NotFound'))))).resolves.toBeUndefined();
    const recreated = { ...machineSet, metadata: { ...machineSet.metadata, uid: 'other-uid' } };
    await expect(labelOf(workerMachine, withMachineSet(async () => recreated))).resolves.toBeUndefined();
  });

  it('throws when the MachineSet cannot be read, so the pass is retried instead of missing the reused host', async () => {
    const unavailable = apiError(503, 'ServiceUnavailable');
    await expect(reuseOwner(workerMachine, withMachineSet(async () => Promise.reject(unavailable)))).rejects.toBe(unavailable);
  });

  it('for a control plane Machine: cp-<name> of its owner in controlplane.cluster.x-k8s.io, and the template that control plane names now', async () => {
    const controlPlaneMachine = {
      ...workerMachine,
      metadata: { namespace: NAMESPACE, name: 'cp-abc', labels: { 'cluster.x-k8s.io/control-plane': '' },
        ownerReferences: [{ apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlane', name: 'dev-cp', uid: 'kcp-uid' }] },
    } as unknown as Machine;
    const asked: string[] = [];
    const kcp: KubeObject = { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlane', metadata: { namespace: NAMESPACE, name: 'dev-cp' },
      spec: { machineTemplate: { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3MachineTemplate', name: 'cp-v2' } } } } } as KubeObject;
    const owner = await reuseOwner(controlPlaneMachine, {
      machineSets: noControlPlane(),
      controlPlanes: (ref) => {
        asked.push(`${ref.apiVersion} ${ref.kind}`);
        return clientOf(async () => kcp);
      },
    });
    expect(owner?.labelValue).toBe('cp-dev-cp');
    // The label needs no read; only the template does.
    expect(asked).toEqual([]);
    await expect(owner?.template()).resolves.toEqual({ name: 'cp-v2', namespace: NAMESPACE });
    expect(asked).toEqual(['controlplane.cluster.x-k8s.io/v1beta2 KubeadmControlPlane']);
  });
});
