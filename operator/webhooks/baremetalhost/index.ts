export { validateHost, validateHostUpdate } from './validate-host.ts';
export type { HostValidationOptions } from './validation-context.ts';
