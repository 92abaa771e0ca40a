/** The infrastructure.cluster.x-k8s.io/v1beta2 API of the provider, and the Cluster API kinds it reads. */
export * from './cluster-api.ts';
export * from './common.ts';
export * from './group-version.ts';
export * from './metal3cluster.ts';
export * from './metal3clustertemplate.ts';
export * from './metal3data.ts';
export * from './metal3dataclaim.ts';
export * from './metal3datatemplate.ts';
export * from './metal3machine.ts';
export * from './metal3machinetemplate.ts';
export * from './metal3remediation.ts';
export * from './well-known.ts';
export { PROVIDER_CRD_SOURCES } from './crd/sources.ts';
export { PROVIDER_CRD_DIRECTORY, providerGeneratedFiles } from './crd/generated-files.ts';
export { CONVERSION_DATA_ANNOTATION, CONVERTIBLE_KINDS, ConversionError, V1BETA1, convertObject } from './v1beta1/index.ts';
