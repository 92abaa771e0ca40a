import type { z } from 'zod';
import { metal3DataSpecSchema, metal3DataStatusSchema } from '../metal3data.ts';
import { metal3DataClaimSpecSchema, metal3DataClaimStatusSchema } from '../metal3dataclaim.ts';
import { metal3DataTemplateSpecSchema, metal3DataTemplateStatusSchema } from '../metal3datatemplate.ts';
import type { MetaDataTemplate, NetworkDataTemplate } from '../metal3datatemplate.ts';
import { defineConversion } from './define-conversion.ts';
import {
  metal3DataClaimSpecV1beta1Schema, metal3DataClaimStatusV1beta1Schema, metal3DataSpecV1beta1Schema, metal3DataStatusV1beta1Schema,
  metal3DataTemplateSpecV1beta1Schema, metal3DataTemplateStatusV1beta1Schema,
} from './metal3data.ts';
import type { MetaDataV1beta1, NetworkDataV1beta1 } from './metal3data.ts';
import { referenceDown, referenceUp } from './object-reference.ts';

function metaDataUp(metaData: MetaDataV1beta1): MetaDataTemplate {
  const { ipAddressesFromIPPool, prefixesFromIPPool, gatewaysFromIPPool, dnsServersFromIPPool, ...same } = metaData;
  return {
    ...same,
    ipAddressesFromPool: ipAddressesFromIPPool,
    prefixesFromPool: prefixesFromIPPool,
    gatewaysFromPool: gatewaysFromIPPool,
    dnsServersFromPool: dnsServersFromIPPool,
  };
}

function metaDataDown(metaData: MetaDataTemplate): MetaDataV1beta1 {
  const { ipAddressesFromPool, prefixesFromPool, gatewaysFromPool, dnsServersFromPool, ...same } = metaData;
  return {
    ...same,
    ipAddressesFromIPPool: ipAddressesFromPool,
    prefixesFromIPPool: prefixesFromPool,
    gatewaysFromIPPool: gatewaysFromPool,
    dnsServersFromIPPool: dnsServersFromPool,
  };
}

/** A bond's parameter map becomes a list sorted by name, as CAPM3 sorts it. */
function networkDataUp(networkData: NetworkDataV1beta1): NetworkDataTemplate {
  const { links, ...same } = networkData;
  if (links?.bonds === undefined) return { ...same, ...(links ? { links: { ...links, bonds: undefined } } : {}) };
  const bonds = links.bonds.map(({ parameters, ...bond }) => ({
    ...bond,
    ...(parameters ? { parameters: Object.keys(parameters).sort().map((name) => ({ name, value: parameters[name] })) } : {}),
  }));
  return { ...same, links: { ...links, bonds } };
}

function networkDataDown(networkData: NetworkDataTemplate): NetworkDataV1beta1 {
  const { links, ...same } = networkData;
  if (links?.bonds === undefined) return { ...same, ...(links ? { links: { ...links, bonds: undefined } } : {}) };
  const bonds = links.bonds.map(({ parameters, ...bond }) => ({
    ...bond,
    ...(parameters ? { parameters: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.value])) } : {}),
  }));
  return { ...same, links: { ...links, bonds } };
}

export const metal3DataTemplateConversion = defineConversion({
  kind: 'Metal3DataTemplate',
  keepsConversionData: false,
  v1beta1: { spec: metal3DataTemplateSpecV1beta1Schema, status: metal3DataTemplateStatusV1beta1Schema },
  v1beta2: { spec: metal3DataTemplateSpecSchema, status: metal3DataTemplateStatusSchema },
  // templateReference has no place in v1beta2 (CAPM3 drops it too).
  specUp: (spec): z.input<typeof metal3DataTemplateSpecSchema> => ({
    clusterName: spec.clusterName,
    metaData: spec.metaData ? metaDataUp(spec.metaData) : undefined,
    networkData: spec.networkData ? networkDataUp(spec.networkData) : undefined,
  }),
  statusUp: (status) => ({
    lastUpdated: status.lastUpdated,
    indexes: status.indexes === undefined ? undefined
      : Object.entries(status.indexes).map(([name, index]) => ({ name, index })).sort((a, b) => a.index - b.index),
  }),
  specDown: (spec) => ({
    clusterName: spec.clusterName,
    metaData: spec.metaData ? metaDataDown(spec.metaData) : undefined,
    networkData: spec.networkData ? networkDataDown(spec.networkData) : undefined,
  }),
  statusDown: (status) => ({
    lastUpdated: status.lastUpdated,
    indexes: status.indexes === undefined ? undefined : Object.fromEntries(status.indexes.map((entry) => [entry.name, entry.index])),
  }),
});

export const metal3DataConversion = defineConversion({
  kind: 'Metal3Data',
  keepsConversionData: false,
  v1beta1: { spec: metal3DataSpecV1beta1Schema, status: metal3DataStatusV1beta1Schema },
  v1beta2: { spec: metal3DataSpecSchema, status: metal3DataStatusSchema },
  specUp: (spec) => ({
    index: spec.index,
    metaData: spec.metaData,
    networkData: spec.networkData,
    claim: referenceUp(spec.claim),
    template: referenceUp(spec.template),
  }),
  statusUp: (status) => status,
  specDown: (spec) => ({
    index: spec.index ?? 0,
    metaData: spec.metaData,
    networkData: spec.networkData,
    claim: referenceDown(spec.claim) ?? {},
    template: referenceDown(spec.template) ?? {},
  }),
  statusDown: (status) => status,
});

export const metal3DataClaimConversion = defineConversion({
  kind: 'Metal3DataClaim',
  keepsConversionData: false,
  v1beta1: { spec: metal3DataClaimSpecV1beta1Schema, status: metal3DataClaimStatusV1beta1Schema },
  v1beta2: { spec: metal3DataClaimSpecSchema, status: metal3DataClaimStatusSchema },
  specUp: (spec) => ({ template: referenceUp(spec.template) ?? {} }),
  statusUp: (status) => ({ renderedData: referenceUp(status.renderedData), errorMessage: status.errorMessage }),
  specDown: (spec) => ({ template: referenceDown(spec.template) ?? {} }),
  statusDown: (status) => ({ renderedData: referenceDown(status.renderedData), errorMessage: status.errorMessage }),
});
