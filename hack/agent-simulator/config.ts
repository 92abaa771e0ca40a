import { readFileSync } from 'node:fs';
import { z } from 'zod';

const macAddress = z
  .string()
  .regex(/^([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}$/, 'expected a MAC address like 52:54:00:12:34:56')
  .transform((mac) => mac.toLowerCase());

/** What the switch port behind a NIC announces over LLDP (becomes raw TLVs in the inventory). */
const lldpSchema = z.object({
  switchId: macAddress,
  portId: z.string().min(1),
  switchSystemName: z.string().min(1).optional(),
});

const nicSchema = z.object({
  mac: macAddress,
  ip: z.string().min(1).optional(),
  /** Kernel interface name; defaults to enp<N>s0. */
  name: z.string().min(1).optional(),
  speedMbps: z.number().int().positive().optional(),
  vendor: z.string().optional(),
  product: z.string().optional(),
  lldp: lldpSchema.optional(),
});

const diskSchema = z.object({
  name: z.string().startsWith('/dev/'),
  sizeGiB: z.number().positive(),
  model: z.string().default(''),
  vendor: z.string().default(''),
  serial: z.string().default(''),
  wwn: z.string().nullable().default(null),
  wwnWithExtension: z.string().nullable().default(null),
  wwnVendorExtension: z.string().nullable().default(null),
  rotational: z.boolean().default(false),
  hctl: z.string().nullable().default(null),
  byPath: z.string().nullable().default(null),
  /** Transport as lsblk reports it (sata, sas, nvme...). */
  tran: z.string().nullable().default(null),
});

const inventoryOverridesSchema = z.object({
  cpu: z
    .object({
      count: z.number().int().positive(),
      modelName: z.string().min(1),
      architecture: z.string().min(1),
      frequencyMHz: z.number().positive(),
      flags: z.array(z.string()),
      socketCount: z.number().int().positive(),
    })
    .partial()
    .optional(),
  memoryMiB: z.number().int().positive().optional(),
  /** Replaces the default disks entirely. */
  disks: z.array(diskSchema).optional(),
  systemVendor: z
    .object({
      manufacturer: z.string(),
      productName: z.string(),
      serialNumber: z.string(),
      firmware: z.object({ vendor: z.string(), version: z.string(), buildDate: z.string() }).partial(),
    })
    .partial()
    .optional(),
  hostname: z.string().min(1).optional(),
  /** NICs the BMC does not list (sushy only knows `nics`); they still show up in the inventory and lookup. */
  extraInterfaces: z.array(nicSchema).optional(),
  bootMode: z.enum(['uefi', 'bios']).optional(),
});

const systemSchema = z.object({
  uuid: z.guid(),
  name: z.string().min(1),
  nics: z.array(nicSchema).min(1),
  bmcAddress: z.string().min(1).optional(),
  /** The Redfish emulator serving this server's BMC when it is not `redfish.url` (a BMC of its own a test can stop). */
  redfishUrl: z.url().optional(),
  inventory: inventoryOverridesSchema.optional(),
});

export const simulatorConfigSchema = z.object({
  listen: z.object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535),
  }),
  /** Base URL Ironic uses to reach the agents; defaults to http://<listen.host>:<listen.port>. */
  advertiseUrl: z.url().optional(),
  ironicUrl: z.url(),
  ironicAuth: z.object({ username: z.string().min(1), password: z.string() }).optional(),
  redfish: z.object({
    url: z.url(),
    username: z.string().min(1).optional(),
    password: z.string().optional(),
  }),
  /** Firmware/POST time between power on and the ramdisk (or instance) starting. */
  bootDelayMs: z.number().int().min(0).default(500),
  /** Overrides IPA's heartbeat interval (0.3-0.6 x the heartbeat_timeout Ironic returns on lookup). */
  heartbeatIntervalMs: z.number().int().positive().optional(),
  /** IPA's floor between two heartbeats, also for the forced one after a command finishes (IPA: 5 s). */
  minHeartbeatIntervalMs: z.number().int().min(0).default(1000),
  /** A rejected heartbeat is retried after 1-2x this (IPA: 5 s). */
  heartbeatErrorRetryMs: z.number().int().positive().default(2000),
  /** First retry interval while lookup finds no node (IPA starts at 1 s, then backs off: lookup-backoff.ts). */
  lookupIntervalMs: z.number().int().positive().default(1000),
  /** Simulated duration of every asynchronous agent command (clean/deploy steps, image writes...). */
  commandDelayMs: z.number().int().min(0).default(1000),
  /** IPA's image_download_connection_retries / _retry_interval. */
  imageDownloadRetries: z.number().int().min(0).default(2),
  imageDownloadRetryIntervalMs: z.number().int().min(0).default(1000),
  agentVersion: z.string().min(1).default('11.0.0'),
  /**
   * Kubeconfig of a workload cluster: the installed OS then registers a Node there when it boots
   * from disk (as kubelet would) and the Node goes when the host is deprovisioned. Unset: no Nodes.
   */
  workloadKubeconfig: z.string().min(1).optional(),
  /** Port of the simulated kubelets' HTTPS endpoint (port-forward), on `listen.host`; 0 picks a free one. Only with `workloadKubeconfig`. */
  kubeletPort: z.number().int().min(0).max(65535).default(0),
  /** The etcd binary a simulated control plane node with stacked etcd runs as its member. Unset: such nodes run no etcd. */
  etcdBinary: z.string().min(1).optional(),
  /** Attempts per workload API request before giving up (network errors, 5xx, 429). */
  workloadRequestAttempts: z.number().int().positive().default(5),
  /** First pause between those attempts; doubles each time. */
  workloadRetryIntervalMs: z.number().int().min(0).default(1000),
  systems: z.array(systemSchema),
});

export type SimulatorConfig = z.infer<typeof simulatorConfigSchema>;
export type SimulatorConfigInput = z.input<typeof simulatorConfigSchema>;
export type SystemConfig = SimulatorConfig['systems'][number];
export type NicConfig = SystemConfig['nics'][number];
export type DiskConfig = z.infer<typeof diskSchema>;

export function parseSimulatorConfig(raw: unknown): SimulatorConfig {
  const result = simulatorConfigSchema.safeParse(raw);
  if (!result.success) {
    throw new Error(`invalid agent simulator config:\n${z.prettifyError(result.error)}`);
  }
  const uuids = new Set<string>();
  for (const system of result.data.systems) {
    const uuid = system.uuid.toLowerCase();
    if (uuids.has(uuid)) throw new Error(`invalid agent simulator config: system ${uuid} is listed twice`);
    uuids.add(uuid);
  }
  return result.data;
}

export function loadSimulatorConfig(path: string): SimulatorConfig {
  return parseSimulatorConfig(JSON.parse(readFileSync(path, 'utf8')));
}
