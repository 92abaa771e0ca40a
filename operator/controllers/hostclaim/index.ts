/** BMO's HostClaim controller (--hostclaims): HostClaims take BareMetalHosts that HostDeployPolicies open to their namespace. */
export { CONTROLLER_NAME, setupHostClaimController } from './controller.ts';
export { HOSTCLAIM_DELAYS, HostClaimReconciler } from './reconciler.ts';
