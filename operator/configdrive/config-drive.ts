import type { HostConfigResult } from './host-config-error.ts';
import { HostConfigError } from './host-config-error.ts';
import type { HostConfigSecretRef } from './host-config-refs.ts';
import { parseYamlMap } from './yaml-map.ts';

/** The Ironic `configdrive` object sent with the `active` provision verb. */
export interface ConfigDrive {
  meta_data?: Record<string, unknown>;
  user_data?: string;
  network_data?: Record<string, unknown>;
}

/** Identity of the BareMetalHost being provisioned. */
export interface ConfigDriveHost {
  uid: string;
  namespace: string;
  name: string;
}

/** Text read from a Secret, with where it came from for error messages. */
export interface HostConfigText {
  text: string;
  source: HostConfigSecretRef;
}

export interface ConfigDriveOptions {
  host: ConfigDriveHost;
  /** A live ISO gets no config drive: it would need a second virtual media slot. */
  liveIso: boolean;
  userData?: string | undefined;
  networkData?: HostConfigText | undefined;
  metaData?: HostConfigText | undefined;
}

/** BMO's meta_data when no metaData Secret overrides it; both hostname spellings are read by cloud-init variants. */
export function defaultMetaData(host: ConfigDriveHost): Record<string, unknown> {
  return {
    uuid: host.uid,
    'metal3-namespace': host.namespace,
    'metal3-name': host.name,
    'local-hostname': host.name,
    local_hostname: host.name,
    name: host.name,
  };
}

function parsedMap(data: HostConfigText, what: string): HostConfigResult<Record<string, unknown> | undefined> {
  const parsed = parseYamlMap(data.text);
  if (parsed.ok) return parsed;
  const secret = `${data.source.namespace}/${data.source.name}`;
  const message = `failed to unmarshal ${what} from secret ${secret} (key ${data.source.kind}): ${parsed.reason}`;
  return { ok: false, error: new HostConfigError({ kind: 'not-a-map', secret, key: data.source.kind, message }) };
}

/**
 * BMO's `getConfigDrive`. Empty parts are left out. The metaData map is merged key by key
 * over the defaults; a metaData document that is `null` removes meta_data entirely, as in BMO.
 * Returns undefined for a live ISO.
 */
export function buildConfigDrive(options: ConfigDriveOptions): HostConfigResult<ConfigDrive | undefined> {
  if (options.liveIso) return { ok: true, value: undefined };
  const drive: ConfigDrive = {};
  if (options.userData) drive.user_data = options.userData;

  if (options.networkData?.text) {
    const network = parsedMap(options.networkData, 'network_data.json');
    if (!network.ok) return network;
    if (network.value !== undefined && Object.keys(network.value).length > 0) drive.network_data = network.value;
  }

  let metaData: Record<string, unknown> | undefined = defaultMetaData(options.host);
  if (options.metaData?.text) {
    const overrides = parsedMap(options.metaData, 'metadata');
    if (!overrides.ok) return overrides;
    metaData = overrides.value === undefined ? undefined : { ...metaData, ...overrides.value };
  }
  if (metaData !== undefined && Object.keys(metaData).length > 0) drive.meta_data = metaData;
  return { ok: true, value: drive };
}
