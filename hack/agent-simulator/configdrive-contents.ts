import { z } from 'zod';
import { Iso9660Image } from './iso9660.ts';

/** What cloud-init on the installed OS reads from an OpenStack config drive (label config-2). */
export interface ConfigDriveContents {
  /** openstack/<version>/meta_data.json; BMO puts the BareMetalHost's UID in `uuid`. */
  metaData: Record<string, unknown>;
  /** openstack/<version>/user_data, when there is one. */
  userData: string | undefined;
  /** openstack/<version>/network_data.json, when there is one and it is a JSON object. */
  networkData?: Record<string, unknown> | undefined;
}

const metaDataSchema = z.record(z.string(), z.unknown());

/**
 * Reads the config drive Ironic built (openstacksdk's configdrive.build: mkisofs -J -r -V
 * config-2, versions 2012-08-10 and latest). cloud-init prefers `latest`, then the newest
 * dated version. Undefined when the image is no such drive (any bytes may be sent as one).
 */
export function readConfigDriveContents(image: Buffer): ConfigDriveContents | undefined {
  let iso: Iso9660Image;
  try {
    iso = new Iso9660Image(image);
  } catch {
    return undefined;
  }
  const versions = (iso.list('/openstack') ?? []).filter((entry) => entry.isDirectory).map((entry) => entry.name);
  const ordered = [...versions.filter((name) => name === 'latest'), ...versions.filter((name) => name !== 'latest').sort().reverse()];
  for (const version of ordered) {
    const metaJson = iso.readFile(`/openstack/${version}/meta_data.json`);
    if (metaJson === undefined) continue;
    let metaData: Record<string, unknown>;
    try {
      metaData = metaDataSchema.parse(JSON.parse(metaJson.toString('utf8')));
    } catch {
      return undefined;
    }
    const userData = iso.readFile(`/openstack/${version}/user_data`)?.toString('utf8');
    return { metaData, userData, networkData: readNetworkData(iso.readFile(`/openstack/${version}/network_data.json`)) };
  }
  return undefined;
}

/** cloud-init ignores a network_data.json it cannot parse; so does this reader. */
function readNetworkData(bytes: Buffer | undefined): Record<string, unknown> | undefined {
  if (bytes === undefined) return undefined;
  try {
    return metaDataSchema.parse(JSON.parse(bytes.toString('utf8')));
  } catch {
    return undefined;
  }
}
