import { z } from 'zod';
import { objectMetaSchema } from '../../operator/api/index.ts';
import type { ResourceType } from '../../operator/runtime/index.ts';

/** Cluster API core kinds we read (v1beta2, the storage version since Cluster API 1.11). */
export const CLUSTER_API_GROUP = 'cluster.x-k8s.io';
export const CLUSTER_API_VERSION = 'v1beta2';

function coreKind(kind: string, plural: string): ResourceType {
  return { group: CLUSTER_API_GROUP, version: CLUSTER_API_VERSION, kind, plural, namespaced: true };
}
export const ClusterResource = coreKind('Cluster', 'clusters');
export const MachineResource = coreKind('Machine', 'machines');
export const MachineSetResource = coreKind('MachineSet', 'machinesets');
export const MachineDeploymentResource = coreKind('MachineDeployment', 'machinedeployments');
export const NodeResource: ResourceType = { group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false };
/** Workload cluster kinds a remediation reads to tell an out-of-service Node has drained. */
export const PodResource: ResourceType = { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true };
export const VolumeAttachmentResource: ResourceType = { group: 'storage.k8s.io', version: 'v1', kind: 'VolumeAttachment', plural: 'volumeattachments', namespaced: false };

const contractRefSchema = z.looseObject({ apiGroup: z.string().optional(), kind: z.string().optional(), name: z.string().optional() });
const v1beta1ConditionsSchema = z.array(z.looseObject({ type: z.string(), status: z.string() })).optional();

/** The parts of a Cluster the provider reads; everything else is kept as is. */
export const clusterSchema = z.looseObject({
  metadata: objectMetaSchema,
  spec: z.looseObject({
    paused: z.boolean().optional(),
    infrastructureRef: contractRefSchema.optional(),
    controlPlaneRef: contractRefSchema.optional(),
  }).prefault({}),
  status: z.looseObject({
    initialization: z.looseObject({ infrastructureProvisioned: z.boolean().optional() }).optional(),
    deprecated: z.looseObject({ v1beta1: z.looseObject({ conditions: v1beta1ConditionsSchema }).optional() }).optional(),
  }).optional(),
});
export type Cluster = z.infer<typeof clusterSchema>;

export const machineSchema = z.looseObject({
  metadata: objectMetaSchema,
  spec: z.looseObject({
    clusterName: z.string().optional(),
    bootstrap: z.looseObject({ configRef: contractRefSchema.optional(), dataSecretName: z.string().optional() }).optional(),
    infrastructureRef: contractRefSchema.optional(),
    providerID: z.string().optional(),
    failureDomain: z.string().optional(),
  }).prefault({}),
  status: z.looseObject({
    nodeRef: z.looseObject({ name: z.string().optional() }).optional(),
    deprecated: z.looseObject({ v1beta1: z.looseObject({ conditions: v1beta1ConditionsSchema }).optional() }).optional(),
    conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })).optional(),
  }).optional(),
});
export type Machine = z.infer<typeof machineSchema>;

export const machineSetSchema = z.looseObject({
  metadata: objectMetaSchema,
  spec: z.looseObject({
    template: z.looseObject({ spec: z.looseObject({ infrastructureRef: contractRefSchema.optional() }).optional() }).optional(),
  }).prefault({}),
});
export type MachineSet = z.infer<typeof machineSetSchema>;

/** Whether Cluster API says the cluster's infrastructure is ready (v1beta2 field, or the v1beta1 condition CAPM3 reads). */
export function clusterInfrastructureProvisioned(cluster: Cluster): boolean {
  if (cluster.status?.initialization?.infrastructureProvisioned === true) return true;
  const legacy = cluster.status?.deprecated?.v1beta1?.conditions ?? [];
  return legacy.some((condition) => condition.type === 'InfrastructureReady' && condition.status === 'True');
}
