import type { FieldError } from '../../operator/runtime/index.ts';
import type { Metal3MachineSpec } from '../api/index.ts';

/** Go's url.ParseRequestURI: an absolute URL, or an absolute path. */
const isRequestUri = (value: string) => value.startsWith('/') || URL.canParse(value);

/**
 * CAPM3's image rules, checked unless a custom deploy method replaces the image: a URL; no
 * checksum for oci:// images; otherwise a checksum (or checksum URL) unless it is a live ISO.
 */
export function machineImageErrors(spec: Pick<Metal3MachineSpec, 'image' | 'customDeploy'>, base: string): FieldError[] {
  if (spec.customDeploy?.method) return [];
  const { image } = spec;
  const field = `${base}.image`;
  if (!image?.url && !image?.checksum) return [{ type: 'Required', field, detail: 'either image or customDeploy is required' }];
  const errors: FieldError[] = [];
  if (!image.url) errors.push({ type: 'Required', field: `${field}.url`, detail: 'cannot be empty' });
  else if (!isRequestUri(image.url)) errors.push({ type: 'Invalid', field: `${field}.url`, value: image.url, detail: 'not a valid URL' });
  // CAPM3 compares the scheme case-insensitively (OCI:// is an OCI image too).
  if (image.url?.toLowerCase().startsWith('oci://')) {
    if (image.checksum) errors.push({ type: 'Forbidden', field: `${field}.checksum`, detail: 'must be empty for oci:// images' });
    if (image.checksumType) errors.push({ type: 'Forbidden', field: `${field}.checksumType`, detail: 'must be empty for oci:// images' });
    return errors;
  }
  if (image.diskFormat === 'live-iso') return errors;
  if (!image.checksum) {
    errors.push({ type: 'Required', field: `${field}.checksum`, detail: 'needed unless diskFormat is live-iso or the URL is oci://' });
  } else if (/^https?:\/\//.test(image.checksum) && !URL.canParse(image.checksum)) {
    errors.push({ type: 'Invalid', field: `${field}.checksum`, value: image.checksum, detail: 'not a valid URL' });
  }
  return errors;
}

/** CAPM3 refuses data Secrets in another namespace than the Metal3Machine's. */
export function secretNamespaceErrors(spec: Pick<Metal3MachineSpec, 'userData' | 'metaData' | 'networkData'>, options: { namespace: string | undefined; base: string }): FieldError[] {
  return (['userData', 'metaData', 'networkData'] as const).flatMap((name): FieldError[] => {
    const ref = spec[name];
    if (!ref?.namespace || ref.namespace === options.namespace) return [];
    return [{ type: 'Forbidden', field: `${options.base}.${name}.namespace`, detail: `cross-namespace secret references are not allowed (the Metal3Machine is in ${options.namespace ?? 'no namespace'}, not ${ref.namespace})` }];
  });
}

/** Everything CAPM3's Metal3Machine webhook checks. */
export function machineSpecErrors(spec: Metal3MachineSpec, options: { namespace: string | undefined; base: string }): FieldError[] {
  return [...machineImageErrors(spec, options.base), ...secretNamespaceErrors(spec, options)];
}
