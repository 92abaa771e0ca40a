import type { KubeObject, ResourceClient } from '../../operator/runtime/index.ts';
import { isNotFound } from '../../operator/runtime/index.ts';
import { CLUSTER_API_GROUP, CONTROL_PLANE_LABEL } from '../api/index.ts';
import type { Machine } from '../api/index.ts';

/** Cluster API's control plane providers' group (KubeadmControlPlane and any other). */
export const CONTROL_PLANE_GROUP = 'controlplane.cluster.x-k8s.io';

/** Reads the owners a Machine's node reuse depends on. */
export interface ReuseOwnerClients {
  machineSets: ResourceClient<KubeObject>;
  /** A client for the control plane kind an owner reference names (any provider: read as plain objects). */
  controlPlanes: (owner: { apiVersion: string; kind: string }) => ResourceClient<KubeObject>;
}

/** Who a Machine's released host is kept for, and the Metal3MachineTemplate its owner makes Machines from now. */
export interface ReuseOwner {
  /** `md-<MachineDeployment>` or `cp-<control plane>`, as CAPM3 writes the node-reuse label. */
  labelValue: string;
  /** The template the owner references today (undefined when it cannot be found: no reuse). */
  template(): Promise<{ name: string; namespace: string } | undefined>;
}

function ownerWhere(object: KubeObject, accept: (ref: { apiVersion: string; kind: string }) => boolean) {
  return object.metadata.ownerReferences?.find(accept);
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/**
 * A Machine's node-reuse owner, as CAPM3 1.14 finds it: a control plane Machine's control plane
 * (its owner in controlplane.cluster.x-k8s.io), whose spec.machineTemplate names the template;
 * a worker's MachineSet, matched by UID, whose MachineDeployment gives the label and whose own
 * spec.template the template (during a rollout, the template the new Machines come from).
 * Undefined for a Machine with neither, or whose MachineSet is gone; any other error reading the
 * MachineSet is thrown, so the pass is retried rather than a reused host missed (CAPM3 6949c1d).
 */
export async function reuseOwner(machine: Machine, clients: ReuseOwnerClients, signal?: AbortSignal): Promise<ReuseOwner | undefined> {
  const namespace = machine.metadata.namespace ?? '';
  const options = signal ? { signal } : {};
  if (machine.metadata.labels?.[CONTROL_PLANE_LABEL] !== undefined) {
    const ref = ownerWhere(machine, (owner) => groupOf(owner.apiVersion) === CONTROL_PLANE_GROUP);
    if (!ref) return undefined;
    return {
      labelValue: `cp-${ref.name}`,
      template: async () => {
        let controlPlane: KubeObject;
        try {
          controlPlane = await clients.controlPlanes(ref).get({ namespace, name: ref.name }, options);
        } catch (error) {
          if (isNotFound(error)) return undefined;
          throw error;
        }
        const infrastructureRef = (controlPlane.spec as { machineTemplate?: { spec?: { infrastructureRef?: { name?: string; namespace?: string } } } } | undefined)
          ?.machineTemplate?.spec?.infrastructureRef;
        return infrastructureRef?.name ? { name: infrastructureRef.name, namespace: infrastructureRef.namespace || namespace } : undefined;
      },
    };
  }
  const setRef = ownerWhere(machine, (owner) => owner.kind === 'MachineSet');
  if (!setRef || !setRef.apiVersion.startsWith(`${CLUSTER_API_GROUP}/`)) return undefined;
  let machineSet: KubeObject;
  try {
    machineSet = await clients.machineSets.get({ namespace, name: setRef.name }, options);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  if (machineSet.metadata.uid !== setRef.uid) return undefined;
  const deployment = ownerWhere(machineSet, (owner) => owner.kind === 'MachineDeployment');
  if (!deployment) return undefined;
  const templateName = (machineSet.spec as { template?: { spec?: { infrastructureRef?: { name?: string } } } } | undefined)?.template?.spec?.infrastructureRef?.name;
  return { labelValue: `md-${deployment.name}`, template: async () => (templateName ? { name: templateName, namespace } : undefined) };
}
