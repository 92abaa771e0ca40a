import type { z } from 'zod';
import { metal3MachineSpecSchema, metal3MachineStatusSchema } from '../metal3machine.ts';
import { metal3MachineTemplateSpecSchema } from '../metal3machinetemplate.ts';
import { restoredAt } from './conversion-data.ts';
import { defineConversion } from './define-conversion.ts';
import { emptySchema } from './empty-status.ts';
import { contractStatusDown, contractStatusUp } from './legacy-status.ts';
import {
  metal3MachineSpecV1beta1Schema, metal3MachineStatusV1beta1Schema, metal3MachineTemplateSpecV1beta1Schema,
} from './metal3machine.ts';
import type { Metal3MachineSpecV1beta1 } from './metal3machine.ts';
import { referenceDown, referenceUp } from './object-reference.ts';

type MachineSpec = z.output<typeof metal3MachineSpecSchema>;

const nonEmpty = (text: string | undefined) => (text ? text : undefined);

function machineSpecUp(spec: Metal3MachineSpecV1beta1): z.input<typeof metal3MachineSpecSchema> {
  const { image, hostSelector, customDeploy } = spec;
  // Go clients write v1beta1's image and host selector as values: empty ones mean none.
  const hasImage = image !== undefined && (image.url !== '' || image.checksum || image.checksumType || image.format);
  const hasSelector = Object.keys(hostSelector?.matchLabels ?? {}).length > 0 || (hostSelector?.matchExpressions?.length ?? 0) > 0;
  return {
    providerID: nonEmpty(spec.providerID),
    image: hasImage ? {
      url: image.url, checksum: nonEmpty(image.checksum), checksumType: image.checksumType, diskFormat: image.format,
    } : undefined,
    customDeploy: customDeploy?.method ? customDeploy : undefined,
    userData: spec.userData,
    hostSelector: hasSelector ? hostSelector : undefined,
    dataTemplate: referenceUp(spec.dataTemplate),
    metaData: spec.metaData,
    networkData: spec.networkData,
    automatedCleaningMode: spec.automatedCleaningMode,
    failureDomain: nonEmpty(spec.failureDomain),
  };
}

function machineSpecDown(spec: MachineSpec): Metal3MachineSpecV1beta1 {
  const { image } = spec;
  return {
    providerID: nonEmpty(spec.providerID),
    image: image === undefined ? undefined : {
      url: image.url, checksum: image.checksum, checksumType: image.checksumType, format: image.diskFormat,
    },
    customDeploy: spec.customDeploy,
    userData: spec.userData,
    hostSelector: spec.hostSelector,
    dataTemplate: referenceDown(spec.dataTemplate),
    metaData: spec.metaData,
    networkData: spec.networkData,
    automatedCleaningMode: spec.automatedCleaningMode,
    failureDomain: spec.failureDomain,
  };
}

export const metal3MachineConversion = defineConversion({
  kind: 'Metal3Machine',
  keepsConversionData: true,
  v1beta1: { spec: metal3MachineSpecV1beta1Schema, status: metal3MachineStatusV1beta1Schema },
  v1beta2: { spec: metal3MachineSpecSchema, status: metal3MachineStatusSchema },
  specUp: (spec) => machineSpecUp(spec),
  statusUp: (status, restored) => ({
    lastUpdated: status.lastUpdated,
    addresses: status.addresses?.length ? status.addresses : undefined,
    userData: status.userData,
    renderedData: referenceUp(status.renderedData),
    metaData: status.metaData,
    networkData: status.networkData,
    ...contractStatusUp(status, restored),
  }),
  specDown: machineSpecDown,
  statusDown: (status) => ({
    lastUpdated: status.lastUpdated,
    addresses: status.addresses,
    userData: status.userData,
    renderedData: referenceDown(status.renderedData),
    metaData: status.metaData,
    networkData: status.networkData,
    ...contractStatusDown(status),
  }),
});

export const metal3MachineTemplateConversion = defineConversion({
  kind: 'Metal3MachineTemplate',
  keepsConversionData: true,
  v1beta1: { spec: metal3MachineTemplateSpecV1beta1Schema, status: emptySchema },
  v1beta2: { spec: metal3MachineTemplateSpecSchema, status: emptySchema },
  specUp: (spec, restored) => {
    const metadata = restoredAt(restored, ['spec', 'template', 'metadata']);
    return { template: { ...(metadata ? { metadata } : {}), spec: machineSpecUp(spec.template.spec) }, nodeReuse: spec.nodeReuse };
  },
  statusUp: (status) => status,
  specDown: (spec) => ({ template: { spec: machineSpecDown(spec.template.spec) }, nodeReuse: spec.nodeReuse }),
  statusDown: (status) => status,
});
