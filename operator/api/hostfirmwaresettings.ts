import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { conditionSchema } from './conditions.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { objectMetaSchema } from './object-meta.ts';
import { rfc3339 } from './rfc3339.ts';

export const HostFirmwareSettingsResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'HostFirmwareSettings',
  plural: 'hostfirmwaresettings',
  namespaced: true,
} as const satisfies ResourceType;

/** Condition types of HostFirmwareSettings and HostFirmwareComponents (BMO's names). */
export const FIRMWARE_CONDITION_VALID = 'Valid';
export const FIRMWARE_CONDITION_CHANGE_DETECTED = 'ChangeDetected';

export const hostFirmwareSettingsSpecSchema = z.object({
  settings: z
    .record(z.string(), z.union([z.int(), z.string()]))
    .prefault({})
    .describe('Settings to apply, by name; integers or strings (intstr.IntOrString).'),
});

export const schemaReferenceSchema = z.object({
  namespace: z.string().describe('Namespace of the FirmwareSchema.'),
  name: z.string().describe('Name of the FirmwareSchema.'),
});

export const hostFirmwareSettingsStatusSchema = z.object({
  schema: schemaReferenceSchema.optional().describe('The FirmwareSchema these settings are validated against.'),
  settings: z.record(z.string(), z.string()).prefault({}).describe('The current settings as the BMC reports them (passwords left out).'),
  lastUpdated: rfc3339().optional().describe('When the status last changed.'),
  conditions: z.array(conditionSchema).meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }).optional().describe('Valid and ChangeDetected. (one per type, as BMO\'s CRD keys them).'),
});

export const hostFirmwareSettingsSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: hostFirmwareSettingsSpecSchema.prefault({}),
  status: hostFirmwareSettingsStatusSchema.optional(),
});

export type HostFirmwareSettingsSpec = z.output<typeof hostFirmwareSettingsSpecSchema>;
export type HostFirmwareSettingsStatus = z.output<typeof hostFirmwareSettingsStatusSchema>;
export type HostFirmwareSettings = z.output<typeof hostFirmwareSettingsSchema>;

const _isKubeObject = (settings: HostFirmwareSettings): KubeObject => settings;
