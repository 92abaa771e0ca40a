/** The API group and version BMO serves its kinds under; kept identical so existing YAML applies. */
export const METAL3_GROUP = 'metal3.io';
export const METAL3_VERSION = 'v1alpha1';
export const METAL3_API_VERSION = `${METAL3_GROUP}/${METAL3_VERSION}`;
