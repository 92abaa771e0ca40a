// What the BareMetalHost controller applies in preparing: BMO's getHostFirmwareSettings.
import type { HostFirmwareSettings } from '../../api/hostfirmwaresettings.ts';
import { FIRMWARE_CONDITION_CHANGE_DETECTED, FIRMWARE_CONDITION_VALID } from '../../api/hostfirmwaresettings.ts';
import type { Condition } from '../../runtime/conditions.ts';
import { findCondition } from '../../runtime/conditions.ts';

export interface FirmwareSettingChange {
  name: string;
  value: string | number;
}

/**
 * The spec settings that differ from status, when the controller found the spec valid and
 * changed for the generation it has now (so an edit not yet validated is never applied).
 */
export function pendingSettingChanges(hfs: HostFirmwareSettings | undefined): FirmwareSettingChange[] {
  if (!hfs?.status) return [];
  const conditions = hfs.status.conditions as Condition[] | undefined;
  const generation = hfs.metadata.generation ?? 0;
  const current = (type: string) => {
    const condition = findCondition(conditions, type);
    return condition?.observedGeneration === generation ? condition.status : undefined;
  };
  if (current(FIRMWARE_CONDITION_VALID) !== 'True' || current(FIRMWARE_CONDITION_CHANGE_DETECTED) !== 'True') return [];
  const status = hfs.status.settings;
  return Object.entries(hfs.spec.settings)
    .filter(([name, value]) => status[name] !== String(value))
    .map(([name, value]) => ({ name, value }));
}
