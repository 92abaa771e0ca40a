import { z } from 'zod';
import type { ResourceType } from '../../operator/runtime/index.ts';
import { INFRASTRUCTURE_GROUP, INFRASTRUCTURE_VERSION } from './group-version.ts';
import { metal3ClusterSpecSchema } from './metal3cluster.ts';
import { templateMetadataSchema } from './template-metadata.ts';

export const Metal3ClusterTemplateResource = {
  group: INFRASTRUCTURE_GROUP,
  version: INFRASTRUCTURE_VERSION,
  kind: 'Metal3ClusterTemplate',
  plural: 'metal3clustertemplates',
  namespaced: true,
} as const satisfies ResourceType;

/** ClusterClass clones Metal3Clusters from this; no controller acts on it. */
export const metal3ClusterTemplateSpecSchema = z.object({
  template: z.object({
    metadata: templateMetadataSchema.optional(),
    spec: metal3ClusterSpecSchema.prefault({}).describe('The Metal3Cluster spec every clone starts from.'),
  }).describe('What Cluster API clones into each Metal3Cluster.'),
});
