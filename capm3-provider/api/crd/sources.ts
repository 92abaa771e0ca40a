import type { CrdSource, OlderVersionSource, PrinterColumn } from '../../../operator/api/index.ts';
import { CONTRACT_LABELS } from '../group-version.ts';
import { Metal3ClusterResource, metal3ClusterSpecSchema, metal3ClusterStatusSchema } from '../metal3cluster.ts';
import { Metal3ClusterTemplateResource, metal3ClusterTemplateSpecSchema } from '../metal3clustertemplate.ts';
import { Metal3DataResource, metal3DataSpecSchema, metal3DataStatusSchema } from '../metal3data.ts';
import { Metal3DataClaimResource, metal3DataClaimSpecSchema, metal3DataClaimStatusSchema } from '../metal3dataclaim.ts';
import { Metal3DataTemplateResource, metal3DataTemplateSpecSchema, metal3DataTemplateStatusSchema } from '../metal3datatemplate.ts';
import { Metal3MachineResource, metal3MachineSpecSchema, metal3MachineStatusSchema } from '../metal3machine.ts';
import { Metal3MachineTemplateResource, metal3MachineTemplateSpecSchema } from '../metal3machinetemplate.ts';
import {
  Metal3RemediationResource, Metal3RemediationTemplateResource, metal3RemediationSpecSchema, metal3RemediationStatusSchema,
  metal3RemediationTemplateSpecSchema, metal3RemediationTemplateStatusSchema,
} from '../metal3remediation.ts';
import {
  V1BETA1, metal3ClusterSpecV1beta1Schema, metal3ClusterStatusV1beta1Schema, metal3ClusterTemplateSpecV1beta1Schema,
  metal3DataClaimSpecV1beta1Schema, metal3DataClaimStatusV1beta1Schema, metal3DataSpecV1beta1Schema, metal3DataStatusV1beta1Schema,
  metal3DataTemplateSpecV1beta1Schema, metal3DataTemplateStatusV1beta1Schema, metal3MachineSpecV1beta1Schema,
  metal3MachineStatusV1beta1Schema, metal3MachineTemplateSpecV1beta1Schema, metal3RemediationSpecV1beta1Schema,
  metal3RemediationStatusV1beta1Schema, metal3RemediationTemplateSpecV1beta1Schema,
} from '../v1beta1/index.ts';

const age: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since creation' };
const cluster: PrinterColumn = {
  name: 'Cluster', type: 'string', jsonPath: '.metadata.labels.cluster\\.x-k8s\\.io/cluster-name', description: 'Cluster it belongs to',
};
const common = { scope: 'Namespaced' as const, categories: ['cluster-api'], labels: { ...CONTRACT_LABELS } };
const CLUSTERCTL_MOVE_LABEL = 'clusterctl.cluster.x-k8s.io/move';
const CLUSTERCTL_SKIP_CRD_NAME_CHECK = 'clusterctl.cluster.x-k8s.io/skip-crd-name-preflight-check';

/** CAPM3's deprecated v1beta1, still served: the API server asks the provider's /convert webhook for it. */
function v1beta1(fields: Omit<OlderVersionSource, 'version' | 'description'> & { kind: string }): OlderVersionSource[] {
  const { kind, ...rest } = fields;
  return [{ version: V1BETA1, description: `${kind} in the deprecated v1beta1 API; stored as v1beta2.`, ...rest }];
}
/** The same in both versions: the fields they name did not move. */
const remediationColumns: PrinterColumn[] = [
  { name: 'Retry limit', type: 'string', jsonPath: '.spec.strategy.retryLimit', description: 'Power cycles retried at most' },
  { name: 'Retry count', type: 'string', jsonPath: '.status.retryCount', description: 'Power cycles retried so far' },
  { name: 'Last Remediated', type: 'string', jsonPath: '.status.lastRemediated', description: 'When the current power cycle started' },
  { name: 'Strategy', type: 'string', jsonPath: '.spec.strategy.type', description: 'Remediation strategy' },
  { name: 'Phase', type: 'string', jsonPath: '.status.phase', description: 'Phase of the remediation' },
];
const ready: PrinterColumn = { name: 'Ready', type: 'boolean', jsonPath: '.status.ready', description: 'Infrastructure ready' };

export const metal3ClusterCrdSource: CrdSource = {
  ...common,
  group: Metal3ClusterResource.group,
  version: Metal3ClusterResource.version,
  kind: Metal3ClusterResource.kind,
  listKind: 'Metal3ClusterList',
  plural: Metal3ClusterResource.plural,
  singular: 'metal3cluster',
  shortNames: ['m3c', 'm3cluster', 'm3clusters', 'metal3c', 'metal3cluster'],
  description: 'The bare-metal infrastructure of one Cluster API Cluster: its control plane endpoint and failure domains.',
  spec: metal3ClusterSpecSchema,
  specDescription: 'Desired state of the cluster infrastructure.',
  status: metal3ClusterStatusSchema,
  statusDescription: 'Observed state, written by the provider.',
  printerColumns: [
    age,
    { name: 'Provisioned', type: 'string', jsonPath: '.status.initialization.provisioned', description: 'Infrastructure provisioned' },
    { name: 'Error', type: 'string', jsonPath: '.status.deprecated.v1beta1.failureReason', description: 'Most recent error' },
    cluster,
    { name: 'Endpoint', type: 'string', jsonPath: '.spec.controlPlaneEndpoint', description: 'Control plane endpoint' },
  ],
  olderVersions: v1beta1({
    kind: 'Metal3Cluster', spec: metal3ClusterSpecV1beta1Schema, specDescription: 'Desired state of the cluster infrastructure.',
    status: metal3ClusterStatusV1beta1Schema, statusDescription: 'Observed state.',
    printerColumns: [
      age, ready, { name: 'Error', type: 'string', jsonPath: '.status.failureReason', description: 'Most recent error' }, cluster,
      { name: 'Endpoint', type: 'string', jsonPath: '.spec.controlPlaneEndpoint', description: 'Control plane endpoint' },
    ],
  }),
};

export const metal3ClusterTemplateCrdSource: CrdSource = {
  ...common,
  group: Metal3ClusterTemplateResource.group,
  version: Metal3ClusterTemplateResource.version,
  kind: Metal3ClusterTemplateResource.kind,
  listKind: 'Metal3ClusterTemplateList',
  plural: Metal3ClusterTemplateResource.plural,
  singular: 'metal3clustertemplate',
  shortNames: ['m3ct'],
  description: 'A Metal3Cluster blueprint for ClusterClass.',
  spec: metal3ClusterTemplateSpecSchema,
  specDescription: 'The template.',
  printerColumns: [age],
  olderVersions: v1beta1({
    kind: 'Metal3ClusterTemplate', spec: metal3ClusterTemplateSpecV1beta1Schema, specDescription: 'The template.', printerColumns: [age],
  }),
};

export const metal3MachineCrdSource: CrdSource = {
  ...common,
  group: Metal3MachineResource.group,
  version: Metal3MachineResource.version,
  kind: Metal3MachineResource.kind,
  listKind: 'Metal3MachineList',
  plural: Metal3MachineResource.plural,
  singular: 'metal3machine',
  shortNames: ['m3m', 'm3machine', 'm3machines', 'metal3m', 'metal3machine'],
  description: 'The bare-metal side of one Cluster API Machine: which BareMetalHost it claims and what is written to it.',
  spec: metal3MachineSpecSchema,
  specDescription: 'Desired state of the machine.',
  status: metal3MachineStatusSchema,
  statusDescription: 'Observed state, written by the provider.',
  printerColumns: [
    age,
    { name: 'ProviderID', type: 'string', jsonPath: '.spec.providerID', description: 'Provider ID' },
    { name: 'Provisioned', type: 'string', jsonPath: '.status.initialization.provisioned', description: 'Host provisioned' },
    cluster,
    { name: 'Host', type: 'string', jsonPath: '.metadata.annotations.metal3\\.io/BareMetalHost', description: 'Claimed BareMetalHost' },
  ],
  olderVersions: v1beta1({
    kind: 'Metal3Machine', spec: metal3MachineSpecV1beta1Schema, specDescription: 'Desired state of the machine.',
    status: metal3MachineStatusV1beta1Schema, statusDescription: 'Observed state.',
    printerColumns: [
      age, { name: 'ProviderID', type: 'string', jsonPath: '.spec.providerID', description: 'Provider ID' }, ready, cluster,
      { name: 'Phase', type: 'string', jsonPath: '.status.phase', description: 'Phase' },
    ],
  }),
};

export const metal3MachineTemplateCrdSource: CrdSource = {
  ...common,
  group: Metal3MachineTemplateResource.group,
  version: Metal3MachineTemplateResource.version,
  kind: Metal3MachineTemplateResource.kind,
  listKind: 'Metal3MachineTemplateList',
  plural: Metal3MachineTemplateResource.plural,
  singular: 'metal3machinetemplate',
  shortNames: ['m3mt', 'm3machinetemplate', 'm3machinetemplates', 'metal3mt', 'metal3machinetemplate'],
  description: 'A Metal3Machine blueprint that MachineDeployments and control planes clone.',
  spec: metal3MachineTemplateSpecSchema,
  specDescription: 'The template and node reuse.',
  printerColumns: [age],
  olderVersions: v1beta1({
    kind: 'Metal3MachineTemplate', spec: metal3MachineTemplateSpecV1beta1Schema, specDescription: 'The template and node reuse.', printerColumns: [age],
  }),
};

export const metal3RemediationCrdSource: CrdSource = {
  ...common,
  group: Metal3RemediationResource.group,
  version: Metal3RemediationResource.version,
  kind: Metal3RemediationResource.kind,
  listKind: 'Metal3RemediationList',
  plural: Metal3RemediationResource.plural,
  singular: 'metal3remediation',
  shortNames: ['m3r', 'm3remediation'],
  description: 'The remediation of one unhealthy Machine, named after it: its host is power cycled, and given up on when that does not help.',
  spec: metal3RemediationSpecSchema,
  specDescription: 'The remediation strategy.',
  status: metal3RemediationStatusSchema,
  statusDescription: 'Observed state, written by the provider.',
  printerColumns: remediationColumns,
  olderVersions: v1beta1({
    kind: 'Metal3Remediation', spec: metal3RemediationSpecV1beta1Schema, specDescription: 'The remediation strategy.',
    status: metal3RemediationStatusV1beta1Schema, statusDescription: 'Observed state.',
    printerColumns: remediationColumns,
  }),
};

export const metal3RemediationTemplateCrdSource: CrdSource = {
  ...common,
  group: Metal3RemediationTemplateResource.group,
  version: Metal3RemediationTemplateResource.version,
  kind: Metal3RemediationTemplateResource.kind,
  listKind: 'Metal3RemediationTemplateList',
  plural: Metal3RemediationTemplateResource.plural,
  singular: 'metal3remediationtemplate',
  shortNames: ['m3rt', 'm3remediationtemplate', 'm3remediationtemplates', 'metal3rt', 'metal3remediationtemplate'],
  description: 'A Metal3Remediation blueprint a MachineHealthCheck names in remediation.templateRef.',
  spec: metal3RemediationTemplateSpecSchema,
  specDescription: 'The template.',
  status: metal3RemediationTemplateStatusSchema,
  statusDescription: 'Unused.',
  printerColumns: [age],
  olderVersions: v1beta1({
    kind: 'Metal3RemediationTemplate', spec: metal3RemediationTemplateSpecV1beta1Schema, specDescription: 'The template.',
    status: metal3RemediationTemplateStatusSchema, statusDescription: 'Unused.', printerColumns: [],
  }),
};

export const metal3DataTemplateCrdSource: CrdSource = {
  ...common,
  group: Metal3DataTemplateResource.group,
  version: Metal3DataTemplateResource.version,
  kind: Metal3DataTemplateResource.kind,
  listKind: 'Metal3DataTemplateList',
  plural: Metal3DataTemplateResource.plural,
  singular: 'metal3datatemplate',
  shortNames: ['m3dt', 'm3datatemplate', 'm3datatemplates', 'metal3dt', 'metal3datatemplate'],
  // clusterctl move takes every template, also one no Cluster owns.
  labels: { ...common.labels, [CLUSTERCTL_MOVE_LABEL]: '' },
  description: 'How per-machine meta data and network data are rendered; every claim on it gets the lowest free index.',
  spec: metal3DataTemplateSpecSchema,
  specDescription: 'What the rendered Secrets hold.',
  status: metal3DataTemplateStatusSchema,
  statusDescription: 'Indexes given out, written by the provider.',
  printerColumns: [cluster, age],
  olderVersions: v1beta1({
    kind: 'Metal3DataTemplate', spec: metal3DataTemplateSpecV1beta1Schema, specDescription: 'The meta data and network data to render.',
    status: metal3DataTemplateStatusV1beta1Schema, statusDescription: 'Indexes given out.', printerColumns: [cluster, age],
  }),
};

export const metal3DataClaimCrdSource: CrdSource = {
  ...common,
  group: Metal3DataClaimResource.group,
  version: Metal3DataClaimResource.version,
  kind: Metal3DataClaimResource.kind,
  listKind: 'Metal3DataClaimList',
  plural: Metal3DataClaimResource.plural,
  singular: 'metal3dataclaim',
  shortNames: ['m3dc', 'm3dataclaim', 'm3dataclaims', 'metal3dc', 'metal3dataclaim'],
  description: 'A Metal3Machine\'s request for data rendered from a Metal3DataTemplate.',
  spec: metal3DataClaimSpecSchema,
  specDescription: 'The template.',
  status: metal3DataClaimStatusSchema,
  statusDescription: 'The Metal3Data made for it, written by the provider.',
  printerColumns: [
    age, cluster,
    { name: 'Template', type: 'string', jsonPath: '.spec.template.name', description: 'Metal3DataTemplate' },
    { name: 'Data', type: 'string', jsonPath: '.status.renderedData.name', description: 'Metal3Data made for it' },
  ],
  olderVersions: v1beta1({
    kind: 'Metal3DataClaim', spec: metal3DataClaimSpecV1beta1Schema, specDescription: 'The template.',
    status: metal3DataClaimStatusV1beta1Schema, statusDescription: 'The Metal3Data made for it.', printerColumns: [age],
  }),
};

export const metal3DataCrdSource: CrdSource = {
  ...common,
  group: Metal3DataResource.group,
  version: Metal3DataResource.version,
  kind: Metal3DataResource.kind,
  listKind: 'Metal3DataList',
  plural: Metal3DataResource.plural,
  singular: 'metal3data',
  shortNames: ['m3d', 'm3data', 'm3datas', 'metal3d', 'metal3data'],
  // Kind Metal3Data pluralises to metal3data in clusterctl's eyes, not metal3datas: its name check is skipped, as CAPM3 does.
  annotations: { [CLUSTERCTL_SKIP_CRD_NAME_CHECK]: '' },
  description: 'The data of one Metal3Machine rendered from a template: its index, its IP addresses and its meta/network data Secrets.',
  spec: metal3DataSpecSchema,
  specDescription: 'Index, claim, template and the rendered Secrets.',
  status: metal3DataStatusSchema,
  statusDescription: 'Whether the Secrets are rendered, written by the provider.',
  printerColumns: [
    age, cluster,
    { name: 'Index', type: 'integer', jsonPath: '.spec.index', description: 'Index in the template' },
    { name: 'Ready', type: 'boolean', jsonPath: '.status.ready', description: 'Secrets rendered' },
    { name: 'Error', type: 'string', jsonPath: '.status.errorMessage', description: 'Why not rendered' },
  ],
  olderVersions: v1beta1({
    kind: 'Metal3Data', spec: metal3DataSpecV1beta1Schema, specDescription: 'Index, claim, template and the rendered Secrets.',
    status: metal3DataStatusV1beta1Schema, statusDescription: 'Whether the Secrets are rendered.', printerColumns: [age],
  }),
};

export const PROVIDER_CRD_SOURCES: readonly CrdSource[] = [
  metal3ClusterCrdSource, metal3ClusterTemplateCrdSource, metal3MachineCrdSource, metal3MachineTemplateCrdSource,
  metal3RemediationCrdSource, metal3RemediationTemplateCrdSource,
  metal3DataTemplateCrdSource, metal3DataClaimCrdSource, metal3DataCrdSource,
];

