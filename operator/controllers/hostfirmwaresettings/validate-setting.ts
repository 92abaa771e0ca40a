// BMO's SettingSchema.Validate and validateHostFirmwareSettings, with BMO's messages.
import type { SettingSchema } from '../../api/firmwareschema.ts';

const invalid = (name: string, message: string): string => `Setting ${name} is invalid, ${message}`;

/** Why `value` may not be written to `name` under `schema`, or undefined when it may. */
export function settingProblem(name: string, value: number | string, schema: SettingSchema): string | undefined {
  if (schema.read_only) return invalid(name, 'it is ReadOnly');
  if (name.includes('Password')) return invalid(name, "Password fields can't be set");
  const text = String(value);
  switch (schema.attribute_type) {
    case 'Enumeration':
      return schema.allowable_values?.includes(text) ? undefined : invalid(name, `unknown enumeration value - ${text}`);
    case 'Integer': {
      if (typeof value === 'string' && !/^[+-]?\d+$/.test(value)) return invalid(name, `String ${value} entered while integer expected`);
      const number = Number(value);
      if (schema.lower_bound !== undefined && number < schema.lower_bound) return invalid(name, `integer ${number} is below minimum value ${schema.lower_bound}`);
      if (schema.upper_bound !== undefined && number > schema.upper_bound) return invalid(name, `integer ${number} is above maximum value ${schema.upper_bound}`);
      return undefined;
    }
    case 'String':
      if (schema.min_length !== undefined && text.length < schema.min_length) return invalid(name, `string ${text} length is below minimum length ${schema.min_length}`);
      if (schema.max_length !== undefined && text.length > schema.max_length) return invalid(name, `string ${text} length is above maximum length ${schema.max_length}`);
      return undefined;
    case 'Boolean':
      return text === 'true' || text === 'false' ? undefined : invalid(name, `${text} is not a boolean`);
    case 'Password':
      return invalid(name, 'passwords are immutable');
    case undefined:
      // The BMC published no registry entry: nothing to check against.
      return undefined;
  }
}

/** Every problem with the wanted settings: names the BMC lacks, then what the schema forbids. */
export function settingsProblems(
  wanted: Record<string, number | string>,
  current: Record<string, string>,
  schema: Record<string, SettingSchema> | undefined,
): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(wanted)) {
    if (name.includes('Password')) {
      problems.push('cannot set Password field');
      continue;
    }
    if (!(name in current)) {
      problems.push(`setting ${name} is not in the Status field`);
      continue;
    }
    if (!schema) continue;
    const entry = schema[name];
    const problem = entry ? settingProblem(name, value, entry) : invalid(name, 'it is not in the associated schema');
    if (problem) problems.push(problem);
  }
  return problems;
}
