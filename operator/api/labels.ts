/**
 * Secrets a host uses get this label (value `baremetal`); the manager's Secret cache
 * selects on it, so unlabelled Secrets are invisible to the informer until labelled.
 */
export const ENVIRONMENT_LABEL = 'environment.metal3.io';
export const ENVIRONMENT_LABEL_VALUE = 'baremetal';
