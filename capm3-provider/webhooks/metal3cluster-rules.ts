import { z } from 'zod';
import { objectMetaSchema } from '../../operator/api/index.ts';
import type { FieldError } from '../../operator/runtime/index.ts';
import { DEFAULT_CONTROL_PLANE_PORT, metal3ClusterSchema, metal3ClusterTemplateSpecSchema } from '../api/index.ts';
import type { Metal3Cluster } from '../api/index.ts';
import { defaultsAt } from './defaults-patch.ts';
import type { DefaultingRules, ValidatingRules } from './review.ts';

const isUnsetNumber = (value: unknown) => value === undefined || value === null || value === 0;

/** CAPM3's Metal3Cluster defaults: the API server port 6443, the cloud provider off. */
export const metal3ClusterDefaults: DefaultingRules = {
  kind: 'Metal3Cluster',
  defaults: (object) => defaultsAt(object, [
    { path: ['spec', 'controlPlaneEndpoint', 'port'], value: DEFAULT_CONTROL_PLANE_PORT, isZero: isUnsetNumber },
    { path: ['spec', 'cloudProviderEnabled'], value: false, isZero: (value) => value === undefined || value === null },
  ]),
};

/** A Metal3Cluster needs the address of its workload cluster's API server. */
export const metal3ClusterRules: ValidatingRules<Metal3Cluster> = {
  kind: 'Metal3Cluster',
  schema: metal3ClusterSchema,
  validate: (cluster) => ({
    errors: cluster.spec.controlPlaneEndpoint?.host
      ? []
      : [{ type: 'Invalid', field: 'spec.controlPlaneEndpoint', value: '', detail: 'is required: the host (VIP or load balancer) of the workload cluster API server' }],
  }),
};

const metal3ClusterTemplateSchema = z.looseObject({ metadata: objectMetaSchema, spec: metal3ClusterTemplateSpecSchema });
type Metal3ClusterTemplate = z.infer<typeof metal3ClusterTemplateSchema>;

/** Nothing defaults a template's endpoint, so CAPM3 wants both its host and its port. */
export const metal3ClusterTemplateRules: ValidatingRules<Metal3ClusterTemplate> = {
  kind: 'Metal3ClusterTemplate',
  schema: metal3ClusterTemplateSchema,
  validate: (template) => {
    const endpoint = template.spec.template.spec.controlPlaneEndpoint;
    const field = 'spec.template.spec.controlPlaneEndpoint';
    const errors: FieldError[] = [];
    if (!endpoint?.host) errors.push({ type: 'Required', field: `${field}.host`, detail: 'missing from the template' });
    if (!endpoint?.port) errors.push({ type: 'Required', field: `${field}.port`, detail: 'missing from the template' });
    return { errors };
  },
};
