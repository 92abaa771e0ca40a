import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { objectMetaSchema } from './object-meta.ts';

export const HostDeployPolicyResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'HostDeployPolicy',
  plural: 'hostdeploypolicies',
  namespaced: true,
} as const satisfies ResourceType;

/** Which namespaces' HostClaims may take the BareMetalHosts of the policy's namespace: every constraint given must hold. */
export const hostClaimNamespacesSchema = z.object({
  names: z.array(z.string()).optional().describe('The HostClaim\'s namespace is one of these.'),
  nameMatches: z.string().optional().describe('The HostClaim\'s namespace matches this regular expression.'),
  hasLabels: z.array(z.object({
    name: z.string().describe('Label name.'),
    value: z.string().optional().describe('Label value; any value when unset.'),
  })).optional().describe('The HostClaim\'s namespace carries these labels.'),
});
export type HostClaimNamespaces = z.infer<typeof hostClaimNamespacesSchema>;

export const hostDeployPolicySpecSchema = z.object({
  hostClaimNamespaces: hostClaimNamespacesSchema.optional()
    .describe('HostClaims from namespaces meeting these constraints may claim hosts here; a policy without them opens nothing.'),
});

/** BMO's HostDeployPolicyStatus is an empty struct. */
export const hostDeployPolicyStatusSchema = z.object({});

export const hostDeployPolicySchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: hostDeployPolicySpecSchema.prefault({}),
  status: hostDeployPolicyStatusSchema.optional(),
});
export type HostDeployPolicy = z.output<typeof hostDeployPolicySchema>;

const _isKubeObject = (policy: HostDeployPolicy): KubeObject => policy;
