export { createIronicProvisioner } from './ironic-provisioner.ts';
export type { IronicProvisionerOptions, PollIntervals } from './options.ts';
