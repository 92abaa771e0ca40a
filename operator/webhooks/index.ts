/** The operator's admission webhooks: BMO's validation rules behind an HTTPS AdmissionReview server. */
export { allowed, denied, admissionReviewSchema } from './admission-review.ts';
export type { AdmissionRequest, AdmissionResponseBody } from './admission-review.ts';
export { BAREMETALHOST_WEBHOOK_PATH, reviewBareMetalHost } from './baremetalhost-validator.ts';
export { HOSTFIRMWARECOMPONENTS_WEBHOOK_PATH, reviewHostFirmwareComponents, validateHostFirmwareComponents } from './hostfirmwarecomponents-validator.ts';
export { DATAIMAGE_WEBHOOK_PATH, reviewDataImage } from './dataimage-validator.ts';
export { aggregateMessage, validateHost, validateHostUpdate } from './baremetalhost/index.ts';
export type { HostValidationOptions, Violation } from './baremetalhost/index.ts';
export { WebhookServer } from './webhook-server.ts';
export type { AdmissionHandler, WebhookServerOptions } from './webhook-server.ts';
export { BMCEVENTSUBSCRIPTION_WEBHOOK_PATH, reviewBMCEventSubscription, validateBMCEventSubscription } from './bmceventsubscription-validator.ts';
