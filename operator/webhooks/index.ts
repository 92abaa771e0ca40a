/** The operator's admission webhooks: BMO's validation rules behind an HTTPS AdmissionReview server. */
export { BAREMETALHOST_WEBHOOK_PATH, reviewBareMetalHost } from './baremetalhost-validator.ts';
export { HOSTFIRMWARECOMPONENTS_WEBHOOK_PATH, reviewHostFirmwareComponents, validateHostFirmwareComponents } from './hostfirmwarecomponents-validator.ts';
export { DATAIMAGE_WEBHOOK_PATH, reviewDataImage } from './dataimage-validator.ts';
export { validateHost, validateHostUpdate } from './baremetalhost/index.ts';
export type { HostValidationOptions } from './baremetalhost/index.ts';
export { BMCEVENTSUBSCRIPTION_WEBHOOK_PATH, reviewBMCEventSubscription, validateBMCEventSubscription } from './bmceventsubscription-validator.ts';
export { HOSTCLAIM_WEBHOOK_PATH, reviewHostClaim, validateHostClaim } from './hostclaim-validator.ts';
export { HOSTNETWORKATTACHMENT_WEBHOOK_PATH, reviewHostNetworkAttachment } from './hostnetworkattachment-validator.ts';
export type { HostNetworkAttachmentReviewDeps } from './hostnetworkattachment-validator.ts';
export { hostAttachmentReferences, validateHostNetworkAttachment } from './hostnetworkattachment/index.ts';
export type { FindAttachmentReferences } from './hostnetworkattachment/index.ts';
