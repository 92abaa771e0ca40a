/** The HostFirmwareSettings controller (BIOS settings, FirmwareSchema) and what the host controller reads of it. */
export { CONTROLLER_NAME, EVENT_SOURCE, hostNodeOrStateChanged, perHostController, setupHostFirmwareSettingsController } from './controller.ts';
export { pendingSettingChanges } from './pending-settings.ts';
export type { FirmwareSettingChange } from './pending-settings.ts';
export { HostFirmwareSettingsReconciler } from './reconciler.ts';
export { SETTINGS_RESYNC_MS } from './read-schedule.ts';
export { computeSettingsStatus, settingDifferences } from './settings-status.ts';
export { settingProblem, settingsProblems } from './validate-setting.ts';
export { firmwareHostIdentity, firmwareReadMarker, hasFirmwareToRead } from './host-readable.ts';
export { SettingsReadSchedule } from './read-schedule.ts';
