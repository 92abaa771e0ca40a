export { validateHost, validateHostUpdate } from './validate-host.ts';
export type { HostValidationOptions } from './validation-context.ts';
export { rebootAnnotationProblem } from './annotation-rules.ts';
export { imageProblems } from './image-rules.ts';
