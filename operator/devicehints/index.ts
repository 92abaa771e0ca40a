export {
  DEFAULT_PROFILE_NAME,
  EMPTY_PROFILE_NAME,
  HARDWARE_PROFILE_NAMES,
  hardwareProfileName,
  profileRootDeviceHints,
} from './hardware-profiles.ts';
export type { ProfileHintsResult } from './hardware-profiles.ts';
export type { HostRootDeviceHintsOptions, HostRootDeviceHintsResult } from './host-root-device-hints.ts';
export { hostRootDeviceHints } from './host-root-device-hints.ts';
export type { IronicRootDevice } from './ironic-root-device.ts';
export { ironicRootDevice } from './ironic-root-device.ts';
export type { RootDeviceHints } from './root-device-hints.ts';
export { rootDeviceHintsProblem } from './root-device-hints-problem.ts';
