/** BMO's BareMetalSwitch controller (IRONIC_NETWORKING_ENABLED): the switch configuration Secret Ironic's networking service reads. */
export { CONTROLLER_NAME, EVENT_SOURCE, setupBareMetalSwitchController } from './controller.ts';
export { BareMetalSwitchReconciler, MISSING_SECRET_RETRY_MS } from './reconciler.ts';
export type { BareMetalSwitchReconcilerOptions, SwitchSecretNames } from './reconciler.ts';
export { SWITCH_CONFIG_HEADER, SWITCH_CONFIG_KEY } from './switch-config.ts';
