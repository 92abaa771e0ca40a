import { CredentialsError } from './credentials-error.ts';
import { goTrimSpace } from './go-trim-space.ts';

export interface BMCCredentials {
  username: string;
  password: string;
}

/** The parts of a BareMetalHost that locate its BMC credentials. */
export interface CredentialsHost {
  namespace: string;
  bmc: { address?: string; credentialsName?: string };
}

/** A Kubernetes Secret as read from the API: `data` values are base64. */
export interface SecretData {
  data?: Record<string, string> | undefined;
}

export type CredentialsResult<T> = { ok: true; value: T } | { ok: false; error: CredentialsError };

/** The Secret to fetch: always the host's namespace, named by `spec.bmc.credentialsName`. */
export function bmcSecretKey(host: CredentialsHost): CredentialsResult<{ namespace: string; name: string }> {
  const name = host.bmc.credentialsName ?? '';
  if (name === '') return { ok: false, error: new CredentialsError('empty-secret-reference', 'The BMC secret reference is empty') };
  return { ok: true, value: { namespace: host.namespace, name } };
}

function decodedValue(secret: SecretData, key: string): string {
  const encoded = secret.data?.[key];
  if (encoded === undefined) return '';
  // Users often create the value with `echo ... | base64`, which adds a trailing newline.
  return goTrimSpace(Buffer.from(encoded, 'base64').toString('utf8'));
}

export interface ValidateCredentialsOptions {
  host: CredentialsHost;
  /** The Secret at `bmcSecretKey(host)`, or undefined when it does not exist. */
  secret: SecretData | undefined;
}

/**
 * BMO's `buildAndValidateBMCCredentials`, in its order: secret reference, secret existence,
 * BMC address, then username and password. Messages name keys, never their values.
 */
export function validateBMCCredentials(options: ValidateCredentialsOptions): CredentialsResult<BMCCredentials> {
  const key = bmcSecretKey(options.host);
  if (!key.ok) return key;
  if (options.secret === undefined) {
    const detail = `The BMC secret ${key.value.namespace}/${key.value.name} does not exist`;
    return { ok: false, error: new CredentialsError('secret-not-found', detail) };
  }
  if ((options.host.bmc.address ?? '') === '') {
    return { ok: false, error: new CredentialsError('empty-address', "Missing BMC connection detail 'Address'") };
  }
  const username = decodedValue(options.secret, 'username');
  if (username === '') {
    return { ok: false, error: new CredentialsError('invalid-credentials', "Missing BMC connection detail 'username' in credentials") };
  }
  const password = decodedValue(options.secret, 'password');
  if (password === '') {
    // "details" (plural) is BMO's wording for this one message.
    return { ok: false, error: new CredentialsError('invalid-credentials', "Missing BMC connection details 'password' in credentials") };
  }
  return { ok: true, value: { username, password } };
}
