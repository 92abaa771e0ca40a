import { bmcAccessFor } from '../../bmc/index.ts';
import type { BMCAddressError } from '../../bmc/index.ts';
import { bmcSecretKey, validateBMCCredentials } from '../../credentials/index.ts';
import type { CredentialsError } from '../../credentials/index.ts';
import type { Host } from './host.ts';
import { isDeleting } from './host.ts';
import type { SecretAccess } from '../../secrets/index.ts';
import type { HostCredentials } from './state-context.ts';

export type CredentialsOutcome =
  | { ok: true; credentials: HostCredentials }
  | { ok: false; error: CredentialsError | BMCAddressError; missingSecret: boolean };

/**
 * BMO's `buildAndValidateBMCCredentials`: find the Secret named by spec.bmc in the host's
 * namespace, claim it (label, owner reference, and a finalizer unless the host is already
 * being deleted), then check address and keys with BMO's messages, and resolve the BMC type.
 */
export async function loadHostCredentials(host: Host, secrets: SecretAccess, options: { signal?: AbortSignal } = {}): Promise<CredentialsOutcome> {
  const namespace = host.metadata.namespace ?? '';
  const bmc = { address: host.spec.bmc?.address ?? '', credentialsName: host.spec.bmc?.credentialsName ?? '' };
  const key = bmcSecretKey({ namespace, bmc });
  if (!key.ok) return { ok: false, error: key.error, missingSecret: false };
  const secret = await secrets.claim(key.value, {
    owner: { name: host.metadata.name ?? '', uid: host.metadata.uid ?? '' },
    // Not for a host being deleted: its release is near, and a late pass must not hold the Secret again.
    finalizer: !isDeleting(host),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const validated = validateBMCCredentials({ host: { namespace, bmc }, secret });
  if (!validated.ok) return { ok: false, error: validated.error, missingSecret: validated.error.kind === 'secret-not-found' };
  const access = bmcAccessFor({ address: bmc.address, disableCertificateVerification: host.spec.bmc?.disableCertificateVerification ?? false });
  if (!access.ok) return { ok: false, error: access.error, missingSecret: false };
  return {
    ok: true,
    credentials: {
      access: access.access,
      login: validated.value,
      secret: { name: key.value.name, namespace: key.value.namespace, resourceVersion: secret?.metadata.resourceVersion ?? '' },
    },
  };
}
