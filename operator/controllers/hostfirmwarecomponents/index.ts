/** The HostFirmwareComponents controller (firmware versions, updates) and what the host controller reads of it. */
export { CONTROLLER_NAME, EVENT_SOURCE, setupHostFirmwareComponentsController } from './controller.ts';
export { computeComponentsStatus, pendingFirmwareUpdates, updatesChanged } from './components-status.ts';
export { HostFirmwareComponentsReconciler } from './reconciler.ts';
