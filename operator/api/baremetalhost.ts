import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { bareMetalHostSpecSchema } from './baremetalhost-spec.ts';
import { bareMetalHostStatusSchema } from './baremetalhost-status.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { objectMetaSchema } from './object-meta.ts';

export { bareMetalHostSpecSchema, type BareMetalHostSpec, type BareMetalHostSpecInput } from './baremetalhost-spec.ts';
export { bareMetalHostStatusSchema, type BareMetalHostStatus, type BareMetalHostStatusInput } from './baremetalhost-status.ts';

export const BareMetalHostResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'BareMetalHost',
  plural: 'baremetalhosts',
  namespaced: true,
} as const satisfies ResourceType;

/**
 * A whole BareMetalHost as read from the API server. Loose at the top so fields this
 * version does not know are kept; spec and status fields we model are checked.
 */
export const bareMetalHostSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: bareMetalHostSpecSchema,
  status: bareMetalHostStatusSchema.optional(),
});

export type BareMetalHostInput = z.input<typeof bareMetalHostSchema>;
export type BareMetalHost = z.output<typeof bareMetalHostSchema>;

// Compile-time proof that a parsed host can go wherever the runtime takes a KubeObject.
const _isKubeObject = (host: BareMetalHost): KubeObject => host;
