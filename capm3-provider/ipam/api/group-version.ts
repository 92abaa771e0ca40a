/** Metal3's IPAM API group; a different group from CAPM3's so upstream manifests apply unchanged. */
export const IPAM_GROUP = 'ipam.metal3.io';
export const IPAM_VERSION = 'v1alpha1';
export const IPAM_API_VERSION = `${IPAM_GROUP}/${IPAM_VERSION}`;
