import type { RootDeviceHints } from './root-device-hints.ts';

/** Ironic `instance_info.root_device`: hint name to operator-prefixed value. */
export type IronicRootDevice = Record<string, string>;

const BY_PATH_PREFIX = '/dev/disk/by-path/';

/**
 * BMO's `MakeHintMap`. Identifiers must match exactly (`s== `), model and vendor are
 * substrings (`<in> `), size is a lower bound in GB. No hints gives `{}`, not undefined,
 * because BMO always sends the key.
 */
export function ironicRootDevice(hints: RootDeviceHints | undefined): IronicRootDevice {
  const result: IronicRootDevice = {};
  if (hints === undefined) return result;
  const exact = (key: string, value: string | undefined) => {
    if (value) result[key] = `s== ${value}`;
  };
  if (hints.deviceName) exact(hints.deviceName.startsWith(BY_PATH_PREFIX) ? 'by_path' : 'name', hints.deviceName);
  exact('hctl', hints.hctl);
  if (hints.model) result['model'] = `<in> ${hints.model}`;
  if (hints.vendor) result['vendor'] = `<in> ${hints.vendor}`;
  exact('serial', hints.serialNumber);
  if (hints.minSizeGigabytes) result['size'] = `>= ${Math.trunc(hints.minSizeGigabytes)}`;
  exact('wwn', hints.wwn);
  exact('wwn_with_extension', hints.wwnWithExtension);
  exact('wwn_vendor_extension', hints.wwnVendorExtension);
  if (hints.rotational !== undefined) result['rotational'] = String(hints.rotational);
  return result;
}
