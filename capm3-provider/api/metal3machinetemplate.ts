import { z } from 'zod';
import { objectMetaSchema } from '../../operator/api/index.ts';
import type { ResourceType } from '../../operator/runtime/index.ts';
import { INFRASTRUCTURE_GROUP, INFRASTRUCTURE_VERSION } from './group-version.ts';
import { metal3MachineSpecSchema } from './metal3machine.ts';
import { templateMetadataSchema } from './template-metadata.ts';

export const Metal3MachineTemplateResource = {
  group: INFRASTRUCTURE_GROUP,
  version: INFRASTRUCTURE_VERSION,
  kind: 'Metal3MachineTemplate',
  plural: 'metal3machinetemplates',
  namespaced: true,
} as const satisfies ResourceType;

export const metal3MachineTemplateSpecSchema = z.object({
  template: z.object({
    metadata: templateMetadataSchema.optional(),
    spec: metal3MachineSpecSchema.prefault({}).describe('The Metal3Machine spec every clone starts from.'),
  }).describe('What Cluster API clones into each Metal3Machine.'),
  nodeReuse: z.boolean().default(false)
    .describe('On scale-down or upgrade, keep a released host for the next Machine of the same MachineDeployment or control plane.'),
});

export const metal3MachineTemplateSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: metal3MachineTemplateSpecSchema,
});
export type Metal3MachineTemplate = z.infer<typeof metal3MachineTemplateSchema>;
