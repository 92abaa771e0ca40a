import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { conditionsSchema } from './conditions.ts';
import { customDeploySchema } from './custom-deploy.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { imageSchema } from './image.ts';
import { objectMetaSchema } from './object-meta.ts';
import { objectReferenceSchema } from './object-reference.ts';
import { rfc3339 } from './rfc3339.ts';
import { secretReferenceSchema } from './secret-reference.ts';

export const HostClaimResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'HostClaim',
  plural: 'hostclaims',
  namespaced: true,
} as const satisfies ResourceType;

/** BMO's finalizer on a HostClaim: held until its BareMetalHost is released. */
export const HOSTCLAIM_FINALIZER = 'metal3.io/hostclaim';

/** BMO's HostClaim condition types and reasons. */
export const HOSTCLAIM_CONDITIONS = { associated: 'Associated', synchronized: 'Synchronized', provisioned: 'Provisioned', ready: 'Ready' } as const;
export const HOSTCLAIM_REASONS = {
  associated: 'BareMetalHostAssociated',
  noHost: 'NoBareMetalHost',
  notSynchronized: 'BareMetalHostNotSynchronized',
  deleting: 'HostClaimDeleting',
  deletionFailed: 'HostClaimDeletionFailed',
} as const;

/** A namespaced name (BMO's metal3 ObjectReference: both fields required). */
export const namespacedNameSchema = z.object({
  namespace: z.string().describe('Namespace of the object.'),
  name: z.string().describe('Name of the object.'),
});

export const hostClaimSelectorSchema = z.object({
  matchLabels: z.record(z.string(), z.string()).optional().describe('Labels a BareMetalHost must carry with exactly these values.'),
  matchExpressions: z.array(z.object({
    key: z.string().describe('Label key the requirement applies to.'),
    operator: z.string().describe('One of in, notin, exists, !, =, ==, !=, gt, lt.'),
    values: z.array(z.string()).describe('Values for the operator (none for exists and !).'),
  })).optional().describe('Further requirements on host labels, all of which must hold.'),
  inNamespace: z.string().optional().describe('Only BareMetalHosts of this namespace; any namespace a HostDeployPolicy opens when unset.'),
});
export type HostClaimSelector = z.infer<typeof hostClaimSelectorSchema>;

export const hostClaimSpecSchema = z.object({
  poweredOn: z.boolean().describe('Whether the claimed host should be powered on.'),
  image: imageSchema.optional().describe('Image for the claimed host.'),
  userData: secretReferenceSchema.optional().describe('Secret with user data for the claimed host.'),
  networkData: secretReferenceSchema.optional().describe('Secret with network data for the claimed host.'),
  metaData: secretReferenceSchema.optional().describe('Secret with meta data for the claimed host.'),
  customDeploy: customDeploySchema.optional().describe('Custom deploy method instead of an image.'),
  hostSelector: hostClaimSelectorSchema.optional().describe('Which BareMetalHosts may be claimed, by labels and namespace.'),
  consumerRef: objectReferenceSchema.optional().describe('What uses this claim, e.g. a Cluster API Machine.'),
  failureDomain: z.string().optional().describe('Hosts labelled with this failure domain are preferred.'),
});
export type HostClaimSpec = z.infer<typeof hostClaimSpecSchema>;

export const hostClaimStatusSchema = z.object({
  lastUpdated: rfc3339().optional().describe('When the status was last written.'),
  conditions: conditionsSchema.optional().describe('Associated, Synchronized, Provisioned and their summary Ready.'),
  bareMetalHost: namespacedNameSchema.optional().describe('The BareMetalHost claimed.'),
  hardwareData: namespacedNameSchema.optional().describe('The HardwareData of the claimed host.'),
  poweredOn: z.boolean().optional().describe('Whether the claimed host is powered on.'),
});
export type HostClaimStatus = z.infer<typeof hostClaimStatusSchema>;

export const hostClaimSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: hostClaimSpecSchema.prefault({ poweredOn: false }),
  status: hostClaimStatusSchema.optional(),
});
export type HostClaim = z.output<typeof hostClaimSchema>;

const _isKubeObject = (claim: HostClaim): KubeObject => claim;
