/** The deprecated infrastructure.cluster.x-k8s.io/v1beta1 API: its schemas (CRD versions) and its conversions to and from v1beta2. */
export { V1BETA1 } from './common.ts';
export { CONVERSION_DATA_ANNOTATION } from './conversion-data.ts';
export { CONVERTIBLE_KINDS, convertObject } from './convert-object.ts';
export { ConversionError } from './define-conversion.ts';
export { formatGoDuration, parseGoDurationSeconds } from './go-duration.ts';
export * from './metal3cluster.ts';
export * from './metal3data.ts';
export * from './metal3machine.ts';
export * from './metal3remediation.ts';
