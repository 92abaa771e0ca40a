import type { KubeObject, ResourceClient } from '../../operator/runtime/index.ts';
import { isNotFound } from '../../operator/runtime/index.ts';
import { CLUSTER_API_GROUP, CONTROL_PLANE_LABEL } from '../api/index.ts';
import type { Machine } from '../api/index.ts';

function ownerOf(object: KubeObject, kind: (kind: string) => boolean) {
  return object.metadata.ownerReferences?.find((ref) => kind(ref.kind));
}

/**
 * The node-reuse label value of a Machine's owner, as CAPM3 writes it: `md-<MachineDeployment>`
 * (Machine → MachineSet → MachineDeployment, matched by UID) or `cp-<control plane>`.
 * Undefined for a Machine with neither (it cannot reuse a host), or whose MachineSet is gone; any
 * other error reading the MachineSet is thrown, so the pass is retried rather than a reused host
 * missed (CAPM3 6949c1d).
 */
export async function reuseLabelValue(
  machine: Machine,
  machineSets: ResourceClient<KubeObject>,
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (machine.metadata.labels?.[CONTROL_PLANE_LABEL] !== undefined) {
    const controlPlane = ownerOf(machine, (kind) => kind.endsWith('ControlPlane'));
    return controlPlane ? `cp-${controlPlane.name}` : undefined;
  }
  const setRef = ownerOf(machine, (kind) => kind === 'MachineSet');
  if (!setRef || !setRef.apiVersion.startsWith(`${CLUSTER_API_GROUP}/`)) return undefined;
  let machineSet: KubeObject;
  try {
    machineSet = await machineSets.get({ namespace: machine.metadata.namespace, name: setRef.name }, signal ? { signal } : {});
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  if (machineSet.metadata.uid !== setRef.uid) return undefined;
  const deployment = ownerOf(machineSet, (kind) => kind === 'MachineDeployment');
  return deployment ? `md-${deployment.name}` : undefined;
}
