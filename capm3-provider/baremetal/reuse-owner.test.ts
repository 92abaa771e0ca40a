import { describe, expect, it } from '@jest/globals';
import type { KubeObject, ResourceClient } from '../../operator/runtime/index.ts';
import type { Machine } from '../api/index.ts';
import { reuseLabelValue } from './reuse-owner.ts';

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
};

const apiError = (code: number, reason: string) => Object.assign(new Error(reason), { status: code, code, reason });

function machineSets(answer: () => Promise<KubeObject>): ResourceClient<KubeObject> {
  return { get: answer } as unknown as ResourceClient<KubeObject>;
}

describe('reuseLabelValue', () => {
  it('names the MachineDeployment that owns the Machine\'s MachineSet', async () => {
    await expect(reuseLabelValue(workerMachine, machineSets(async () => machineSet))).resolves.toBe('md-workers');
  });

  it('gives none when the MachineSet is gone, or is another object of the same name', async () => {
    await expect(reuseLabelValue(workerMachine, machineSets(async () => Promise.reject(apiError(404, 'NotFound'))))).resolves.toBeUndefined();
    const recreated = { ...machineSet, metadata: { ...machineSet.metadata, uid: 'other-uid' } };
    await expect(reuseLabelValue(workerMachine, machineSets(async () => recreated))).resolves.toBeUndefined();
  });

  it('throws when the MachineSet cannot be read, so the pass is retried instead of missing the reused host', async () => {
    const unavailable = apiError(503, 'ServiceUnavailable');
    await expect(reuseLabelValue(workerMachine, machineSets(async () => Promise.reject(unavailable)))).rejects.toBe(unavailable);
  });
});
