import { bareMetalHostSpecSchema } from '../baremetalhost-spec.ts';
import { bareMetalHostStatusSchema } from '../baremetalhost-status.ts';
import { BareMetalHostResource } from '../baremetalhost.ts';
import type { CrdSource } from './custom-resource-definition.ts';

/** BMO's BareMetalHost CRD: same names and columns, so `kubectl get bmh` reads the same. */
export const bareMetalHostCrdSource: CrdSource = {
  group: BareMetalHostResource.group,
  version: BareMetalHostResource.version,
  kind: BareMetalHostResource.kind,
  listKind: 'BareMetalHostList',
  plural: BareMetalHostResource.plural,
  singular: 'baremetalhost',
  shortNames: ['bmh', 'bmhost'],
  scope: 'Namespaced',
  description: 'A physical server managed through its BMC: how to reach it, whether it should be on and what to deploy on it.',
  spec: bareMetalHostSpecSchema,
  specDescription: 'Desired state of the host.',
  status: bareMetalHostStatusSchema,
  statusDescription: 'Observed state of the host, written by the operator.',
  printerColumns: [
    { name: 'Status', type: 'string', jsonPath: '.status.operationalStatus', description: 'Operational status', priority: 1 },
    { name: 'State', type: 'string', jsonPath: '.status.provisioning.state', description: 'Provisioning state' },
    { name: 'Consumer', type: 'string', jsonPath: '.spec.consumerRef.name', description: 'What is using the host' },
    { name: 'BMC', type: 'string', jsonPath: '.spec.bmc.address', description: 'BMC address', priority: 1 },
    { name: 'Online', type: 'string', jsonPath: '.spec.online', description: 'Desired power state' },
    { name: 'Error', type: 'string', jsonPath: '.status.errorType', description: 'Kind of the latest error' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since creation' },
  ],
};
