/** The BareMetalHost controller: BMO's state machine over the Provisioner seam. */
export type { Action } from './action.ts';
export { errorBackoffMs, MAX_BACKOFF_COUNT } from './backoff.ts';
export { CONTROLLER_NAME, setupBareMetalHostController } from './controller.ts';
export type { BareMetalHostControllerOptions } from './controller.ts';
export { DEFAULT_MAX_PROVISIONING_RETRIES, DELETION_RETRY_COUNT } from './delays.ts';
export { EVENT_SOURCE } from './events.ts';
export { createHostMetrics } from './metrics.ts';
export type { HostMetrics } from './metrics.ts';
export { hostChanged } from './predicates.ts';
export { BareMetalHostReconciler } from './reconciler.ts';
export type { BareMetalHostReconcilerOptions } from './reconciler.ts';
export type { StateContext, StateMachineSettings } from './state-context.ts';
export { reconcileState } from './state-machine.ts';
export { STATE_HANDLERS } from './states/index.ts';
export type { StateHandler } from './states/index.ts';
export { TRANSITIONS, isAllowedTransition, stateDiagram } from './transitions.ts';
export type { Transition } from './transitions.ts';
