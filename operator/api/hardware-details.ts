import { z } from 'zod';

/** Upstream's MAC pattern; unanchored, as in BMO's CRD, so existing objects keep validating. */
export const MAC_ADDRESS_PATTERN = /[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}/;

export const DISK_TYPES = ['HDD', 'SSD', 'NVME'] as const;
export type DiskType = (typeof DISK_TYPES)[number];

/** An 802.1Q VLAN id. */
const vlanIdSchema = z.int().min(0).max(4094).meta({ format: 'int32' });

export const cpuSchema = z.object({
  arch: z.string().optional().describe('CPU architecture, e.g. x86_64 or aarch64.'),
  model: z.string().optional().describe('CPU model name.'),
  clockMegahertz: z.number().optional().meta({ format: 'double' }).describe('Clock speed in MHz.'),
  flags: z.array(z.string()).optional().describe('CPU feature flags.'),
  count: z.int().optional().describe('Number of logical CPUs.'),
});

export const storageSchema = z.object({
  name: z.string().optional().describe('Linux device name, a stable by-path link when one exists.'),
  alternateNames: z.array(z.string()).optional().describe('Other Linux names of the device, e.g. /dev/sda; may change across reboots.'),
  rotational: z.boolean().optional().describe('Spinning media; prefer `type`.'),
  type: z.enum(DISK_TYPES).optional().describe('Device type: HDD, SSD or NVME.'),
  sizeBytes: z.int().optional().meta({ format: 'int64' }).describe('Capacity in bytes.'),
  vendor: z.string().optional().describe('Device vendor.'),
  model: z.string().optional().describe('Device model.'),
  serialNumber: z.string().optional().describe('Device serial number.'),
  wwn: z.string().optional().describe('World Wide Name of the device.'),
  wwnVendorExtension: z.string().optional().describe('Vendor extension of the WWN.'),
  wwnWithExtension: z.string().optional().describe('WWN with its vendor extension appended.'),
  hctl: z.string().optional().describe('SCSI host:channel:target:lun address.'),
});

export const vlanSchema = z.object({
  id: vlanIdSchema.optional().describe('VLAN id.'),
  name: z.string().optional().describe('VLAN name.'),
});

export const lldpSchema = z.object({
  switchID: z.string().optional().describe('Chassis id of the neighbouring switch.'),
  portID: z.string().optional().describe('Port id on the neighbouring switch.'),
  switchSystemName: z.string().optional().describe('System name of the neighbouring switch.'),
});

/** One NIC address: a dual-stack NIC appears twice, once per IP family. */
export const nicSchema = z.object({
  name: z.string().optional().describe('Interface name, e.g. eth0.'),
  model: z.string().optional().describe('PCI vendor and product ids, e.g. "0x8086 0x1572".'),
  mac: z.string().regex(MAC_ADDRESS_PATTERN).optional().describe('MAC address.'),
  ip: z.string().optional().describe('One IPv4 or IPv6 address of the interface.'),
  speedGbps: z.int().optional().describe('Link speed in Gbit/s.'),
  vlans: z.array(vlanSchema).optional().describe('VLANs seen on the interface.'),
  vlanId: vlanIdSchema.optional().describe('Untagged VLAN id.'),
  pxe: z.boolean().optional().describe('Whether the interface can PXE boot.'),
  lldp: lldpSchema.optional().describe('LLDP data received on the interface.'),
  pciAddress: z.string().optional().describe('PCI address of the interface.'),
});

export const biosSchema = z.object({
  date: z.string().optional().describe('BIOS release date.'),
  vendor: z.string().optional().describe('BIOS vendor.'),
  version: z.string().optional().describe('BIOS version.'),
});

export const firmwareSchema = z.object({
  bios: biosSchema.optional().describe('System BIOS.'),
});

export const systemVendorSchema = z.object({
  manufacturer: z.string().optional().describe('System manufacturer.'),
  productName: z.string().optional().describe('Product name.'),
  serialNumber: z.string().optional().describe('System serial number.'),
});

/** What inspection found on a host; stored in HardwareData and (deprecated) BMH status.hardware. */
export const hardwareDetailsSchema = z.object({
  systemVendor: systemVendorSchema.optional().describe('Vendor details of the whole system.'),
  firmware: firmwareSchema.optional().describe('System firmware.'),
  ramMebibytes: z.int().optional().describe('Memory in MiB.'),
  nics: z.array(nicSchema).optional().describe('Network interfaces, one entry per address.'),
  storage: z.array(storageSchema).optional().describe('Disks and other block devices.'),
  cpu: cpuSchema.optional().describe('Processors.'),
  hostname: z.string().optional().describe('Host name reported during inspection.'),
});

export type Cpu = z.infer<typeof cpuSchema>;
export type Storage = z.infer<typeof storageSchema>;
export type Vlan = z.infer<typeof vlanSchema>;
export type Lldp = z.infer<typeof lldpSchema>;
export type Nic = z.infer<typeof nicSchema>;
export type Bios = z.infer<typeof biosSchema>;
export type Firmware = z.infer<typeof firmwareSchema>;
export type SystemVendor = z.infer<typeof systemVendorSchema>;
export type HardwareDetails = z.infer<typeof hardwareDetailsSchema>;
