import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { objectMetaSchema } from './object-meta.ts';

export const FirmwareSchemaResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'FirmwareSchema',
  plural: 'firmwareschemas',
  namespaced: true,
} as const satisfies ResourceType;

export const FIRMWARE_ATTRIBUTE_TYPES = ['Enumeration', 'String', 'Integer', 'Boolean', 'Password'] as const;

/** One BIOS setting as the BMC's attribute registry describes it (Ironic's BIOS API field names). */
export const settingSchemaSchema = z.object({
  attribute_type: z.enum(FIRMWARE_ATTRIBUTE_TYPES).optional().describe('The type of setting.'),
  allowable_values: z.array(z.string()).optional().describe('The allowable values for an Enumeration setting.'),
  lower_bound: z.int().optional().describe('The lowest value for an Integer setting.'),
  upper_bound: z.int().optional().describe('The highest value for an Integer setting.'),
  min_length: z.int().optional().describe('Minimum length for a String setting.'),
  max_length: z.int().optional().describe('Maximum length for a String setting.'),
  read_only: z.boolean().optional().describe('Whether this setting is read only.'),
  unique: z.boolean().optional().describe("Whether this setting's value is unique to this node, e.g. a serial number."),
});

export const firmwareSchemaSpecSchema = z.object({
  hardwareVendor: z.string().optional().describe('The hardware vendor associated with this schema.'),
  hardwareModel: z.string().optional().describe('The hardware model associated with this schema.'),
  schema: z.record(z.string(), settingSchemaSchema).describe('Map of firmware setting name to its schema.'),
});

export const firmwareSchemaSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: firmwareSchemaSpecSchema,
});

export type SettingSchema = z.output<typeof settingSchemaSchema>;
export type FirmwareSchemaSpec = z.output<typeof firmwareSchemaSpecSchema>;
export type FirmwareSchema = z.output<typeof firmwareSchemaSchema>;

const _isKubeObject = (schema: FirmwareSchema): KubeObject => schema;

/**
 * BMO's schema name: `schema-` and 8 hex digits of a sha256 over the sorted names, types,
 * values and limits, so hosts of the same vendor and model share one FirmwareSchema.
 * Go formats the sorted strings as `[a b c]`; the same text is hashed here.
 */
export function firmwareSchemaName(schema: Record<string, SettingSchema>): string {
  const keys: string[] = [];
  for (const [name, setting] of Object.entries(schema)) {
    keys.push(name, setting.attribute_type ?? '', ...(setting.allowable_values ?? []));
    for (const bound of [setting.lower_bound, setting.upper_bound, setting.min_length, setting.max_length]) {
      if (bound !== undefined) keys.push(String(bound));
    }
    if (setting.read_only !== undefined) keys.push(String(setting.read_only));
  }
  keys.sort();
  return `schema-${createHash('sha256').update(`[${keys.join(' ')}]`).digest('hex').slice(0, 8)}`;
}
