/**
 * Metal3's IP address manager (ipam.metal3.io/v1alpha1): the public entry point for code outside
 * capm3-provider/ipam/, e.g. the Metal3Data controller that claims addresses for its machines.
 */
export * from './api/index.ts';
/** `<namePrefix>-<address with . and : as ->`: the name of the IPAddress holding an address. */
export { ipAddressName } from './allocation/index.ts';
