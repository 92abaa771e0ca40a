import type { z } from 'zod';
import { metal3ClusterSpecSchema, metal3ClusterStatusSchema } from '../metal3cluster.ts';
import { metal3ClusterTemplateSpecSchema } from '../metal3clustertemplate.ts';
import type { FailureDomain } from '../common.ts';
import type { FailureDomainsV1beta1 } from './common.ts';
import { restoredAt } from './conversion-data.ts';
import { defineConversion } from './define-conversion.ts';
import { contractStatusDown, contractStatusUp } from './legacy-status.ts';
import {
  metal3ClusterSpecV1beta1Schema, metal3ClusterStatusV1beta1Schema, metal3ClusterTemplateSpecV1beta1Schema,
} from './metal3cluster.ts';
import type { Metal3ClusterSpecV1beta1 } from './metal3cluster.ts';
import { emptySchema } from './empty-status.ts';

type ClusterSpec = z.output<typeof metal3ClusterSpecSchema>;

/** v1beta1's map by name becomes v1beta2's list, sorted by name; controlPlane only when true, as CAPM3. */
export function failureDomainsUp(domains: FailureDomainsV1beta1 | undefined): FailureDomain[] | undefined {
  if (domains === undefined) return undefined;
  return Object.keys(domains).sort().map((name) => {
    const domain = domains[name];
    return { name, ...(domain?.controlPlane === true ? { controlPlane: true } : {}), ...(domain?.attributes ? { attributes: domain.attributes } : {}) };
  });
}

export function failureDomainsDown(domains: readonly FailureDomain[] | undefined): FailureDomainsV1beta1 | undefined {
  if (domains === undefined) return undefined;
  return Object.fromEntries(domains.map((domain) => [domain.name, {
    controlPlane: domain.controlPlane ?? false, ...(domain.attributes ? { attributes: domain.attributes } : {}),
  }]));
}

function clusterSpecUp(spec: Metal3ClusterSpecV1beta1): z.input<typeof metal3ClusterSpecSchema> {
  const endpoint = spec.controlPlaneEndpoint;
  // Go clients write v1beta1's endpoint as a value: an empty one means none.
  const host = endpoint?.host ? endpoint.host : undefined;
  const port = endpoint?.port ? endpoint.port : undefined;
  const cloudProviderEnabled = spec.cloudProviderEnabled ?? (spec.noCloudProvider === undefined ? undefined : !spec.noCloudProvider);
  return {
    controlPlaneEndpoint: host === undefined && port === undefined ? undefined : { host, port },
    cloudProviderEnabled,
    failureDomains: failureDomainsUp(spec.failureDomains),
  };
}

function clusterSpecDown(spec: ClusterSpec): Metal3ClusterSpecV1beta1 {
  const endpoint = spec.controlPlaneEndpoint;
  return {
    controlPlaneEndpoint: endpoint === undefined ? undefined : { host: endpoint.host ?? '', port: endpoint.port ?? 0 },
    cloudProviderEnabled: spec.cloudProviderEnabled,
    noCloudProvider: spec.cloudProviderEnabled === undefined ? undefined : !spec.cloudProviderEnabled,
    failureDomains: failureDomainsDown(spec.failureDomains),
  };
}

export const metal3ClusterConversion = defineConversion({
  kind: 'Metal3Cluster',
  keepsConversionData: true,
  v1beta1: { spec: metal3ClusterSpecV1beta1Schema, status: metal3ClusterStatusV1beta1Schema },
  v1beta2: { spec: metal3ClusterSpecSchema, status: metal3ClusterStatusSchema },
  specUp: (spec) => clusterSpecUp(spec),
  statusUp: (status, restored) => ({
    lastUpdated: status.lastUpdated,
    failureDomains: failureDomainsUp(status.failureDomains),
    ...contractStatusUp(status, restored),
  }),
  specDown: clusterSpecDown,
  statusDown: (status) => ({
    lastUpdated: status.lastUpdated,
    failureDomains: failureDomainsDown(status.failureDomains),
    ...contractStatusDown(status),
  }),
});

export const metal3ClusterTemplateConversion = defineConversion({
  kind: 'Metal3ClusterTemplate',
  keepsConversionData: true,
  v1beta1: { spec: metal3ClusterTemplateSpecV1beta1Schema, status: emptySchema },
  v1beta2: { spec: metal3ClusterTemplateSpecSchema, status: emptySchema },
  specUp: (spec, restored) => {
    const metadata = restoredAt(restored, ['spec', 'template', 'metadata']);
    return { template: { ...(metadata ? { metadata } : {}), spec: clusterSpecUp(spec.template.spec) } };
  },
  statusUp: (status) => status,
  specDown: (spec) => ({ template: { spec: clusterSpecDown(spec.template.spec) } }),
  statusDown: (status) => status,
});
