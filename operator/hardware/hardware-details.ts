// BMO's HardwareDetails (`status.hardware`, HardwareData `spec.hardware`) with its JSON field
// names. Optional fields are left out when empty, matching Go's `omitempty`, so a freshly
// computed value compares equal to one read back from the API server.

export type DiskType = 'HDD' | 'SSD' | 'NVME';

export interface CPU {
  arch?: string;
  model?: string;
  clockMegahertz?: number;
  flags?: string[];
  count?: number;
}

export interface Storage {
  name?: string;
  alternateNames?: string[];
  rotational?: boolean;
  type?: DiskType;
  sizeBytes?: number;
  vendor?: string;
  model?: string;
  serialNumber?: string;
  wwn?: string;
  wwnVendorExtension?: string;
  wwnWithExtension?: string;
  hctl?: string;
}

export interface VLAN {
  id?: number;
  name?: string;
}

export interface LLDP {
  switchID?: string;
  portID?: string;
  switchSystemName?: string;
}

export interface NIC {
  name?: string;
  model?: string;
  mac?: string;
  ip?: string;
  speedGbps?: number;
  vlans?: VLAN[];
  vlanId?: number;
  pxe?: boolean;
  lldp?: LLDP;
  pciAddress?: string;
}

export interface BIOS {
  date?: string;
  vendor?: string;
  version?: string;
}

export interface HardwareSystemVendor {
  manufacturer?: string;
  productName?: string;
  serialNumber?: string;
}

/** Go always emits nested structs (even empty), so systemVendor, firmware and cpu are always present. */
export interface HardwareDetails {
  systemVendor: HardwareSystemVendor;
  firmware: { bios: BIOS };
  ramMebibytes?: number;
  nics?: NIC[];
  storage?: Storage[];
  cpu: CPU;
  hostname?: string;
}
