/** Metal3Remediation's Reboot strategy as pure decisions: the next step, timeouts, the Node backup, the Machine hand-back. */
export * from './node-backup.ts';
export * from './out-of-service.ts';
export * from './owner-remediated.ts';
export * from './reboot-step.ts';
export * from './timeout.ts';
