import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { objectMetaSchema } from './object-meta.ts';

export const HostUpdatePolicyResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'HostUpdatePolicy',
  plural: 'hostupdatepolicies',
  namespaced: true,
} as const satisfies ResourceType;

/** BMO's UpdatePolicy: `onReboot` lets a provisioned host take the change through servicing when it next powers on. */
export const UPDATE_POLICIES = ['onPreparing', 'onReboot'] as const;
export type UpdatePolicy = (typeof UPDATE_POLICIES)[number];

export const hostUpdatePolicySpecSchema = z.object({
  firmwareSettings: z.enum(UPDATE_POLICIES).optional().describe('When HostFirmwareSettings changes are applied: onPreparing, or onReboot (servicing of a provisioned host).'),
  firmwareUpdates: z.enum(UPDATE_POLICIES).optional().describe('When HostFirmwareComponents updates are applied: onPreparing, or onReboot (servicing of a provisioned host).'),
});

/** BMO's HostUpdatePolicyStatus is an empty struct: the CRD has the field, nothing writes it. */
export const hostUpdatePolicyStatusSchema = z.object({});

export const hostUpdatePolicySchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: hostUpdatePolicySpecSchema.prefault({}),
  status: hostUpdatePolicyStatusSchema.optional(),
});

export type HostUpdatePolicySpec = z.output<typeof hostUpdatePolicySpecSchema>;
export type HostUpdatePolicy = z.output<typeof hostUpdatePolicySchema>;

const _isKubeObject = (policy: HostUpdatePolicy): KubeObject => policy;
