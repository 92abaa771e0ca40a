import type { ConfigDrive, ConfigDriveHost, HostConfigText } from './config-drive.ts';
import { buildConfigDrive } from './config-drive.ts';
import type { HostConfigResult } from './host-config-error.ts';
import { HostConfigError } from './host-config-error.ts';
import type { HostConfigHost, HostConfigKind, HostConfigSecretRef } from './host-config-refs.ts';
import { hostConfigSecretRef, retrievalPrefix } from './host-config-refs.ts';
import type { SecretData } from './read-host-config-value.ts';
import { readHostConfigValue } from './read-host-config-value.ts';

export interface ConfigDriveFromSecretsOptions {
  host: HostConfigHost & { uid: string };
  liveIso: boolean;
  /**
   * Secrets fetched at `hostConfigSecretRef(host, kind)`; a referenced one that is absent here
   * is reported as not found, like the API server's 404.
   */
  secrets: Partial<Record<HostConfigKind, SecretData>>;
}

function secretNotFound(ref: HostConfigSecretRef): HostConfigError {
  const message = `${retrievalPrefix(ref.kind)}: secrets "${ref.name}" not found`;
  return new HostConfigError({ kind: 'secret-not-found', secret: `${ref.namespace}/${ref.name}`, key: ref.kind, message });
}

const ORDER: readonly HostConfigKind[] = ['userData', 'networkData', 'metaData'];

/** Resolve, read and combine user, network and meta data, failing in BMO's order. */
export function configDriveFromSecrets(options: ConfigDriveFromSecretsOptions): HostConfigResult<ConfigDrive | undefined> {
  const identity: ConfigDriveHost = { uid: options.host.uid, namespace: options.host.namespace, name: options.host.name };
  if (options.liveIso) return buildConfigDrive({ host: identity, liveIso: true });
  const texts: Partial<Record<HostConfigKind, HostConfigText>> = {};
  for (const kind of ORDER) {
    const ref = hostConfigSecretRef(options.host, kind);
    if (!ref.ok) return ref;
    if (ref.value === undefined) continue;
    const secret = options.secrets[kind];
    if (secret === undefined) return { ok: false, error: secretNotFound(ref.value) };
    const text = readHostConfigValue(secret, ref.value);
    if (!text.ok) return text;
    texts[kind] = { text: text.value, source: ref.value };
  }
  return buildConfigDrive({
    host: identity,
    liveIso: false,
    userData: texts.userData?.text,
    networkData: texts.networkData,
    metaData: texts.metaData,
  });
}
