import { z } from 'zod';

// The subset of Ironic's node inventory (`GET /v1/nodes/{id}/inventory`, IPA format) that
// HardwareDetails reads. Ironic stores `null` for facts IPA could not collect; like Go's JSON
// decoding, null and missing read as the zero value. Unknown fields are ignored.

const text = z.string().nullish().transform((value) => value ?? '');
const integer = z.int().nullish().transform((value) => value ?? 0);
const flag = z.boolean().nullish().transform((value) => value ?? false);
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((value) => value ?? []);
const section = <T extends z.ZodRawShape>(shape: T) =>
  z
    .object(shape)
    .nullish()
    .transform((value) => value ?? z.object(shape).parse({}));

export const inventoryCpuSchema = section({
  architecture: text,
  count: integer,
  flags: list(z.string()),
  // IPA reports the frequency as a string like "2400.0000"; a number is tolerated too.
  frequency: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value) => (value === null || value === undefined ? '' : String(value))),
  model_name: text,
});

export const inventoryInterfaceSchema = z.object({
  name: text,
  mac_address: text,
  ipv4_address: text,
  ipv6_address: text,
  vendor: text,
  product: text,
  speed_mbps: integer,
  pci_address: text,
});

export const inventoryDiskSchema = z.object({
  name: text,
  by_path: text,
  hctl: text,
  model: text,
  vendor: text,
  serial: text,
  size: integer,
  rotational: flag,
  wwn: text,
  wwn_vendor_extension: text,
  wwn_with_extension: text,
});

export const inventorySchema = z.object({
  bmc_address: text,
  cpu: inventoryCpuSchema,
  disks: list(inventoryDiskSchema),
  interfaces: list(inventoryInterfaceSchema),
  memory: section({ physical_mb: integer, total: integer }),
  system_vendor: section({
    manufacturer: text,
    product_name: text,
    serial_number: text,
    firmware: section({ vendor: text, version: text, build_date: text }),
  }),
  hostname: text,
});

/** Processed inspection data; only the per-interface PXE flag and parsed LLDP are read. */
export const pluginDataSchema = z
  .object({
    all_interfaces: z
      .record(z.string(), z.object({ pxe_enabled: flag }).nullish())
      .nullish()
      .transform((value) => value ?? {}),
    parsed_lldp: z
      .record(z.string(), z.record(z.string(), z.unknown()).nullish())
      .nullish()
      .transform((value) => value ?? {}),
  })
  .nullish()
  .transform((value) => value ?? { all_interfaces: {}, parsed_lldp: {} });

/** The response body of `GET /v1/nodes/{id}/inventory`. */
export const inventoryDataSchema = z.object({
  inventory: inventorySchema,
  plugin_data: z.unknown().optional(),
});

export type Inventory = z.output<typeof inventorySchema>;
export type InventoryInterface = z.output<typeof inventoryInterfaceSchema>;
export type InventoryDisk = z.output<typeof inventoryDiskSchema>;
export type InventoryCpu = z.output<typeof inventoryCpuSchema>;
export type PluginData = z.output<typeof pluginDataSchema>;
