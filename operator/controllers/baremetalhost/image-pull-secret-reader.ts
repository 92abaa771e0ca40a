import type { RegistryCredentialsProblem } from '../../configdrive/index.ts';
import { isOciImage, registryCredentials } from '../../configdrive/index.ts';
import type { Host } from './host.ts';
import type { SecretAccess } from '../../secrets/index.ts';

export type ImagePullSecretResult =
  | { ok: true; credentials: string | undefined }
  /** `reason`: BMO's extra event for a Secret of the wrong type or without usable credentials. */
  | { ok: false; message: string; reason?: RegistryCredentialsProblem };

/**
 * BMO's getImageAuthSecret: for an oci:// image naming `ociAuthSecretName`, `username:password`
 * for its registry from that Docker-config Secret in the host's namespace. The Secret is
 * labelled (not held by a finalizer), as BMO does, so later edits wake the host.
 */
export async function readImagePullSecret(host: Host, secrets: SecretAccess): Promise<ImagePullSecretResult> {
  const image = host.spec.image;
  const secretName = image?.ociAuthSecretName;
  if (image === undefined || !isOciImage(image) || !secretName) return { ok: true, credentials: undefined };
  const namespace = host.metadata.namespace ?? '';
  const secret = await secrets.claim({ namespace, name: secretName }, { finalizer: false });
  if (secret === undefined) return { ok: false, message: `auth secret "${secretName}" not found in namespace "${namespace}"` };
  const result = registryCredentials({ name: secretName, type: secret.type, data: secret.data }, image.url);
  if (!result.ok) return { ok: false, message: result.message, reason: result.reason };
  return { ok: true, credentials: result.credentials };
}
