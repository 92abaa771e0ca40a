import type { HostConfigHost, HostConfigKind, HostConfigResult, SecretData } from '../../configdrive/index.ts';
import { HostConfigError } from '../../configdrive/index.ts';
import { configDriveFromSecrets, hostConfigSecretRef, isLiveIso, preprovisioningNetworkDataRef, ramdiskNetworkData } from '../../configdrive/index.ts';
import type { ConfigDrive } from '../../provisioner/provisioner.ts';
import type { Host } from './host.ts';
import type { SecretAccess } from '../../secrets/index.ts';

const KINDS: readonly HostConfigKind[] = ['userData', 'networkData', 'metaData'];

function configHost(host: Host): HostConfigHost {
  const ref = (reference: { name?: string; namespace?: string } | undefined) =>
    reference === undefined ? undefined : { name: reference.name ?? '', ...(reference.namespace ? { namespace: reference.namespace } : {}) };
  return {
    namespace: host.metadata.namespace ?? '',
    name: host.metadata.name ?? '',
    spec: {
      userData: ref(host.spec.userData),
      networkData: ref(host.spec.networkData),
      metaData: ref(host.spec.metaData),
      preprovisioningNetworkDataName: host.spec.preprovisioningNetworkDataName,
    },
  };
}

/**
 * Reads the host's user, network and meta data Secrets (labelling them, as BMO does, so
 * later reads come from the cache) into a config drive. Errors name Secret and key only.
 */
export async function readConfigDrive(host: Host, secrets: SecretAccess): Promise<HostConfigResult<ConfigDrive | undefined>> {
  const target = configHost(host);
  const liveIso = isLiveIso(host.spec.image);
  const found: Partial<Record<HostConfigKind, SecretData>> = {};
  if (!liveIso) {
    for (const kind of KINDS) {
      const ref = hostConfigSecretRef(target, kind);
      if (!ref.ok) return ref;
      if (ref.value === undefined) continue;
      const secret = await secrets.claim({ namespace: ref.value.namespace, name: ref.value.name }, { finalizer: false });
      if (secret) found[kind] = secret;
    }
  }
  const drive = configDriveFromSecrets({ host: { ...target, uid: host.metadata.uid ?? '' }, liveIso, secrets: found });
  if (!drive.ok) return drive;
  if (drive.value === undefined) return { ok: true, value: undefined };
  return { ok: true, value: { ...drive.value, meta_data: drive.value.meta_data ?? {} } };
}

/**
 * The ramdisk's network data Secret (`preprovisioningNetworkDataName`), read as BMO reads it for
 * the node's `network_data` when no PreprovisioningImage builder runs. Claimed without our
 * finalizer, as the PreprovisioningImage path claims it, so deleting it never waits on the host.
 */
export async function readPreprovisioningNetworkData(host: Host, secrets: SecretAccess): Promise<HostConfigResult<Record<string, unknown> | undefined>> {
  const ref = preprovisioningNetworkDataRef(configHost(host));
  if (ref === undefined) return { ok: true, value: undefined };
  const secret = await secrets.claim({ namespace: ref.namespace, name: ref.name }, { finalizer: false });
  if (!secret) return { ok: false, error: new HostConfigError({ kind: 'secret-not-found', secret: `${ref.namespace}/${ref.name}`, key: ref.kind,
    message: `failed to read preprovisioningNetworkData: Secret ${ref.name} not found` }) };
  return ramdiskNetworkData(secret, ref);
}
