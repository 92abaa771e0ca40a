// The HostFirmwareSettings status BMO's updateStatus computes: current settings, the schema in
// use, and whether the spec is valid and differs from what the BMC reports.
import type { HostFirmwareSettings, HostFirmwareSettingsStatus } from '../../api/hostfirmwaresettings.ts';
import { FIRMWARE_CONDITION_CHANGE_DETECTED, FIRMWARE_CONDITION_VALID } from '../../api/hostfirmwaresettings.ts';
import type { SettingSchema } from '../../api/firmwareschema.ts';
import type { Condition } from '../../runtime/conditions.ts';
import { formatTime, setCondition } from '../../runtime/conditions.ts';
import { deepEqual } from '../../runtime/deep-equal.ts';
import { settingsProblems } from './validate-setting.ts';

export interface SettingsObservation {
  /** As the BMC reports them; Password settings are dropped here. */
  settings: Record<string, string>;
  schemaRef: { namespace: string; name: string };
  schema: Record<string, SettingSchema> | undefined;
}

export interface ComputedStatus {
  status: HostFirmwareSettingsStatus;
  changed: boolean;
  /** BMO's `ValidationFailed` events, one per problem. */
  problems: string[];
  /** `name: "wanted" != "current"` for the log. */
  differences: string[];
}

const SUCCESS = 'Success';
const CONFIGURATION_ERROR = 'ConfigurationError';

/** Spec entries whose value the BMC does not report (yet). */
export function settingDifferences(wanted: Record<string, number | string>, current: Record<string, string>): string[] {
  return Object.entries(wanted)
    .filter(([name, value]) => current[name] !== String(value))
    .map(([name, value]) => `${name}: ${JSON.stringify(String(value))} != ${JSON.stringify(current[name] ?? '<nil>')}`);
}

export function computeSettingsStatus(hfs: HostFirmwareSettings, observed: SettingsObservation, now: Date): ComputedStatus {
  const previous = hfs.status;
  const settings = Object.fromEntries(Object.entries(observed.settings).filter(([name]) => !name.includes('Password')));
  const generation = hfs.metadata.generation ?? 0;
  const differences = settingDifferences(hfs.spec.settings, settings);
  const problems = differences.length > 0 ? settingsProblems(hfs.spec.settings, settings, observed.schema) : [];
  let conditions: Condition[] = (previous?.conditions ?? []) as Condition[];
  const set = (type: string, status: 'True' | 'False', reason: string, message = '') => {
    conditions = setCondition(conditions, { type, status, reason, message, observedGeneration: generation }, { now });
  };
  set(FIRMWARE_CONDITION_CHANGE_DETECTED, differences.length > 0 ? 'True' : 'False', SUCCESS);
  if (problems.length > 0) set(FIRMWARE_CONDITION_VALID, 'False', CONFIGURATION_ERROR, 'Invalid BIOS setting');
  else set(FIRMWARE_CONDITION_VALID, 'True', SUCCESS);
  const status: HostFirmwareSettingsStatus = { schema: observed.schemaRef, settings, conditions, ...(previous?.lastUpdated ? { lastUpdated: previous.lastUpdated } : {}) };
  const changed =
    !deepEqual(previous?.settings, status.settings) || !deepEqual(previous?.schema, status.schema) || !deepEqual(previous?.conditions, status.conditions);
  if (changed) status.lastUpdated = formatTime(now);
  // Events only when something changed (not on every resync), and not before any settings are known.
  const report = changed && Object.keys(settings).length > 0;
  return { status, changed, problems: report ? problems : [], differences };
}
