/** The BMCEventSubscription controller: a Redfish event subscription on a host's BMC, made and removed through Ironic. */
export { CONTROLLER_NAME, EVENT_SOURCE, setupBMCEventSubscriptionController } from './controller.ts';
export { BMCEventSubscriptionReconciler, SUBSCRIPTION_DELAYS } from './reconciler.ts';
