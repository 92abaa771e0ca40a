/** The hardware inventory as IPA serialises it (snake_case, as Ironic stores and returns it). */

export interface InventoryDisk {
  name: string;
  model: string;
  size: number;
  rotational: boolean;
  wwn: string | null;
  serial: string | null;
  vendor: string | null;
  wwn_with_extension: string | null;
  wwn_vendor_extension: string | null;
  hctl: string | null;
  by_path: string | null;
  logical_sectors: number;
  physical_sectors: number;
  tran: string | null;
}

/** Raw LLDP TLVs: [type, hex-encoded value]. */
export type LldpTlv = [number, string];

export interface InventoryInterface {
  name: string;
  mac_address: string;
  ipv4_address: string | null;
  ipv6_address: string | null;
  has_carrier: boolean;
  lldp: LldpTlv[] | null;
  vendor: string | null;
  product: string | null;
  client_id: string | null;
  biosdevname: string | null;
  speed_mbps: number | null;
}

export interface Inventory {
  interfaces: InventoryInterface[];
  cpu: {
    model_name: string;
    frequency: string;
    count: number;
    architecture: string;
    flags: string[];
    socket_count: number;
  };
  disks: InventoryDisk[];
  memory: { total: number; physical_mb: number };
  bmc_address: string | null;
  bmc_v6address: string | null;
  system_vendor: {
    product_name: string;
    serial_number: string;
    manufacturer: string;
    firmware: { vendor: string; version: string; build_date: string };
  };
  boot: { current_boot_mode: 'uefi' | 'bios'; pxe_interface: string | null };
  hostname: string;
}
