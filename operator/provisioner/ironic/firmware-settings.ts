// BMO's GetFirmwareSettings: the BIOS settings Ironic cached from the BMC, with their registry.
import type { BiosSetting } from '../../../ironic-client/index.ts';
import type { SettingSchema } from '../../api/firmwareschema.ts';
import { FIRMWARE_ATTRIBUTE_TYPES } from '../../api/firmwareschema.ts';
import type { FirmwareSettingsReading, HostIdentity } from '../provisioner.ts';
import type { ProvisionerContext } from './context.ts';
import { ironicNodeName } from './node-name.ts';

type AttributeType = (typeof FIRMWARE_ATTRIBUTE_TYPES)[number];
const isAttributeType = (value: string): value is AttributeType => (FIRMWARE_ATTRIBUTE_TYPES as readonly string[]).includes(value);

/** Ironic's registry fields, nulls dropped (as BMO's Go pointers are left nil). */
export function settingSchemaOf(setting: BiosSetting): SettingSchema {
  const schema: SettingSchema = {};
  if (setting.attribute_type && isAttributeType(setting.attribute_type)) schema.attribute_type = setting.attribute_type;
  if (setting.allowable_values?.length) schema.allowable_values = [...setting.allowable_values];
  if (setting.lower_bound != null) schema.lower_bound = setting.lower_bound;
  if (setting.upper_bound != null) schema.upper_bound = setting.upper_bound;
  if (setting.min_length != null) schema.min_length = setting.min_length;
  if (setting.max_length != null) schema.max_length = setting.max_length;
  if (setting.read_only != null) schema.read_only = setting.read_only;
  if (setting.unique != null) schema.unique = setting.unique;
  return schema;
}

export async function firmwareSettings(context: ProvisionerContext, options: { host: HostIdentity }): Promise<FirmwareSettingsReading> {
  const bios = await context.client.nodes.listBiosSettings(options.host.nodeId || ironicNodeName(options.host), { detail: true });
  const reading: FirmwareSettingsReading = { settings: {}, schema: {} };
  for (const setting of bios) {
    reading.settings[setting.name] = setting.value ?? '';
    reading.schema[setting.name] = settingSchemaOf(setting);
  }
  return reading;
}
