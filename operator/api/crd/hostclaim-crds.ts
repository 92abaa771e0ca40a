import { HostClaimResource, hostClaimSpecSchema, hostClaimStatusSchema } from '../hostclaim.ts';
import { HostDeployPolicyResource, hostDeployPolicySpecSchema, hostDeployPolicyStatusSchema } from '../hostdeploypolicy.ts';
import type { CrdSource } from './custom-resource-definition.ts';
import type { PrinterColumn } from './printer-column.ts';

const AGE: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since creation' };

/** BMO's HostClaim (served by --hostclaims): a claim on a BareMetalHost that may live in another namespace. */
export const hostClaimCrdSource: CrdSource = {
  group: HostClaimResource.group,
  version: HostClaimResource.version,
  kind: HostClaimResource.kind,
  listKind: 'HostClaimList',
  plural: HostClaimResource.plural,
  singular: 'hostclaim',
  scope: 'Namespaced',
  description: 'A claim on one BareMetalHost, possibly in another namespace that a HostDeployPolicy opens to this one.',
  spec: hostClaimSpecSchema,
  specDescription: 'Which hosts may be claimed, and what the claimed host should run.',
  status: hostClaimStatusSchema,
  statusDescription: 'The host claimed and the claim\'s conditions.',
  printerColumns: [
    { name: 'Host', type: 'string', jsonPath: '.status.bareMetalHost.name', description: 'BareMetalHost claimed' },
    { name: 'Host Namespace', type: 'string', jsonPath: '.status.bareMetalHost.namespace', description: 'Its namespace' },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status', description: 'Ready condition' },
    AGE,
  ],
};

/** BMO's HostDeployPolicy: opens the BareMetalHosts of its namespace to HostClaims of other namespaces. */
export const hostDeployPolicyCrdSource: CrdSource = {
  group: HostDeployPolicyResource.group,
  version: HostDeployPolicyResource.version,
  kind: HostDeployPolicyResource.kind,
  listKind: 'HostDeployPolicyList',
  plural: HostDeployPolicyResource.plural,
  singular: 'hostdeploypolicy',
  scope: 'Namespaced',
  description: 'Which namespaces\' HostClaims may claim the BareMetalHosts of this namespace.',
  spec: hostDeployPolicySpecSchema,
  specDescription: 'The namespaces allowed.',
  status: hostDeployPolicyStatusSchema,
  statusDescription: 'Empty: nothing is observed about a policy.',
  printerColumns: [AGE],
};
