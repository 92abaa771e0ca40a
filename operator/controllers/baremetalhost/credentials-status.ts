import type { CredentialsStatus } from '../../api/credentials-status.ts';
import type { CredentialsSecretRef } from './state-context.ts';

/** BMO's `CredentialsStatus.Match`: the same Secret at the same resourceVersion. */
export function credentialsMatch(recorded: CredentialsStatus | undefined, secret: CredentialsSecretRef): boolean {
  return (
    recorded?.credentials !== undefined &&
    recorded.credentials.name === secret.name &&
    recorded.credentials.namespace === secret.namespace &&
    recorded.credentialsVersion === secret.resourceVersion
  );
}

export function credentialsStatusFor(secret: CredentialsSecretRef): CredentialsStatus {
  return { credentials: { name: secret.name, namespace: secret.namespace }, credentialsVersion: secret.resourceVersion };
}
