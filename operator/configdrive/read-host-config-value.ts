import type { HostConfigResult } from './host-config-error.ts';
import { HostConfigError } from './host-config-error.ts';
import type { HostConfigSecretRef } from './host-config-refs.ts';
import { retrievalPrefix } from './host-config-refs.ts';

/** A Kubernetes Secret as read from the API: `data` values are base64. */
export interface SecretData {
  data?: Record<string, string> | undefined;
}

/**
 * The decoded text under the kind's own key (`userData`, `networkData`, `metaData`), else
 * under the generic `value` key. Not trimmed: user data is passed on byte for byte.
 */
export function readHostConfigValue(secret: SecretData, ref: HostConfigSecretRef): HostConfigResult<string> {
  const encoded = secret.data?.[ref.kind] ?? secret.data?.['value'];
  if (encoded !== undefined) return { ok: true, value: Buffer.from(encoded, 'base64').toString('utf8') };
  if (ref.missingKey === 'empty') return { ok: true, value: '' };
  const message = `${retrievalPrefix(ref.kind)}: Secret ${ref.name} does not contain key ${ref.kind}`;
  return { ok: false, error: new HostConfigError({ kind: 'missing-key', secret: `${ref.namespace}/${ref.name}`, key: ref.kind, message }) };
}
