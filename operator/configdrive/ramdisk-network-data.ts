import type { HostConfigResult } from './host-config-error.ts';
import { HostConfigError } from './host-config-error.ts';
import type { HostConfigSecretRef } from './host-config-refs.ts';
import type { SecretData } from './read-host-config-value.ts';
import { readHostConfigValue } from './read-host-config-value.ts';
import { parseYamlMap } from './yaml-map.ts';

/**
 * The ramdisk's network data as Ironic's node `network_data` takes it (BMO sets it when no
 * PreprovisioningImage builder runs, so Ironic puts it into the ramdisk it boots): the
 * Secret's `networkData` (or `value`) read as YAML or JSON. An empty or missing value is none.
 */
export function ramdiskNetworkData(secret: SecretData, ref: HostConfigSecretRef): HostConfigResult<Record<string, unknown> | undefined> {
  const text = readHostConfigValue(secret, ref);
  if (!text.ok) return text;
  if (text.value.trim() === '') return { ok: true, value: undefined };
  const parsed = parseYamlMap(text.value);
  if (parsed.ok) return parsed;
  const source = `${ref.namespace}/${ref.name}`;
  const message = `invalid preprovisioningNetworkData: Secret ${source} (key ${ref.kind}) is not a YAML or JSON map: ${parsed.reason}`;
  return { ok: false, error: new HostConfigError({ kind: 'not-a-map', secret: source, key: ref.kind, message }) };
}
