export { validateHost, validateHostUpdate } from './validate-host.ts';
export type { HostValidationOptions } from './validation-context.ts';
export { aggregateMessage } from './violation.ts';
export type { Violation } from './violation.ts';
export { urlProblem } from './image-rules.ts';
