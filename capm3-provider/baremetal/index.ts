/** Host selection, claiming, node linking and release: the provider's business logic behind thin controllers. */
export * from './addresses.ts';
export * from './claim.ts';
export * from './host-choice.ts';
export * from './host-spec.ts';
export * from './pause.ts';
export * from './release.ts';
export * from './reuse-owner.ts';
