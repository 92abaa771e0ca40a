/** BMO's RootDeviceHints (`spec.rootDeviceHints`), JSON field names. */
export interface RootDeviceHints {
  /** `/dev/X` or a `/dev/disk/by-path/X` link. */
  deviceName?: string;
  hctl?: string;
  model?: string;
  vendor?: string;
  serialNumber?: string;
  minSizeGigabytes?: number;
  wwn?: string;
  wwnWithExtension?: string;
  wwnVendorExtension?: string;
  rotational?: boolean;
}
