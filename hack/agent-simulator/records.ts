/** What each simulated server went through, for tests to assert on (GET /records). */

export interface BootRecord {
  at: string;
  /** Redfish BootSourceOverrideTarget when the server came up. */
  bootDevice: string;
  /**
   * What it booted into; `live-os` is an operating system run from the virtual CD (a live ISO);
   * `firmware` also when the boot media could not start anything.
   */
  into: 'ramdisk' | 'disk' | 'firmware' | 'live-os';
  /** A virtual media boot: the image in the BMC's CD drive and what its boot loader started. */
  media?: VirtualMediaBootRecord;
  /** Why nothing started from the boot device. */
  error?: string;
}

export interface VirtualMediaBootRecord {
  url: string;
  /** The boot loader configuration read, e.g. /EFI/BOOT/grub.cfg. */
  config: string;
  kernel: string;
  /** sha256 of the kernel file on the CD (null when the path names no file). */
  kernelSha256: string | null;
  /** The initramfs the boot loader loads, and its sha256. */
  initrd: string | null;
  initrdSha256: string | null;
  /** The kernel command line, the agent token's value masked as `***`. */
  commandLine: string;
  /** The kernel command line carried `ipa-agent-token` (the token itself is not recorded). */
  agentToken: boolean;
  apiUrl: string | null;
  inspectionCallbackUrl: string | null;
}

export interface InspectionRecord {
  at: string;
  nodeUuid: string;
  /** Ironic accepted the data (HTTP 202). */
  accepted: boolean;
  httpStatus: number;
  error?: string;
}

export interface DiskWipeRecord {
  at: string;
  nodeUuid: string | null;
  /** The clean (or deploy) step that wiped it. */
  step: string;
  device: string;
  serial: string | null;
  method: 'metadata' | 'shred' | 'nvme-format' | 'express';
}

export interface ImageWriteRecord {
  at: string;
  nodeUuid: string | null;
  outcome: 'written' | 'failed';
  imageId: string;
  url: string | null;
  device: string | null;
  diskFormat: string | null;
  imageType: 'whole-disk' | 'partition';
  /** Ironic sent an `image_request_authorization` (an OCI registry's), used for the download; never the value. */
  requestAuthorization: boolean;
  checksum: { algorithm: string; expected: string; actual: string; source: string } | null;
  bytes: number | null;
  /** metaData and networkData: the parsed meta_data.json and network_data.json the server received; userData as written. */
  configDrive: {
    written: boolean; bytes?: number; sha256?: string; source?: string;
    metaData?: Record<string, unknown>; networkData?: Record<string, unknown>; userData?: string;
  };
  error?: string;
}

/** A site-specific deploy step the ramdisk ran (Ironic's custom-agent deploy, BMO's customDeploy). */
export interface CustomDeployStepRecord {
  at: string;
  nodeUuid: string | null;
  step: string;
  args: Record<string, unknown>;
  /** The OS install disk the step would install to (root device hints honoured). */
  device: string;
}

/** A software RAID (md) device on the server's disks, as IPA's create_configuration builds it. */
export interface SoftwareRaidVolumeRecord {
  device: string;
  level: string;
  /** `MAX` takes what is left on the smallest member. */
  sizeGb: number | 'MAX';
  rootVolume: boolean;
  /** The member disks (IPA puts one partition of each into the array). */
  members: string[];
}

/** A RAID clean step the ramdisk ran: the md devices it created, or the ones it removed. */
export interface RaidConfigurationRecord {
  at: string;
  nodeUuid: string | null;
  step: 'create_configuration' | 'delete_configuration';
  volumes: SoftwareRaidVolumeRecord[];
}

/** The installed OS's Node in the workload cluster (only with `workloadKubeconfig`). */
export type NodeRecord =
  /** `providerID`: what the kubelet's `--provider-id` gave the Node it created; null without the flag or when the Node was already there. */
  | { at: string; kind: 'node-registered'; node: string; uuid: string | null; providerID: string | null; addresses: string[] }
  /** A boot while a test keeps the OS broken, or after kubeadm failed: its kubelet never started. */
  | { at: string; kind: 'node-not-registered'; node: string; reason: 'os-broken' | 'kubeadm-failed' }
  /** cloud-init ran Cluster API's `kubeadm init` or `join` on the first boot of this image (kubeadm.ts). */
  | { at: string; kind: 'kubeadm-succeeded'; node: string; command: 'init' | 'join'; controlPlane: boolean }
  | { at: string; kind: 'kubeadm-failed'; node: string; command: 'init' | 'join'; controlPlane: boolean; error: string }
  | { at: string; kind: 'node-deleted'; node: string; reason: NodeDeletionReason }
  /** An in-place update extension updated the installed OS (installed-os.ts `updateInPlace`); `node` is its Node, if registered. */
  | { at: string; kind: 'updated-in-place'; node: string | null; imageUrl?: string; kubeletVersion?: string }
  | { at: string; kind: 'node-registration-failed' | 'node-deletion-failed'; node: string; error: string };

/**
 * A graceful shutdown request (Redfish `GracefulShutdown`, the ACPI power button) that reached the
 * server: what ran on it, and whether it shut down or ignored the request (PUT /systems/<uuid>/os).
 */
export interface GracefulShutdownRecord {
  at: string;
  os: string;
  outcome: 'shut-down' | 'ignored';
}

/** Why the installed OS's Node went: the host was deprovisioned, or what was on its disk is gone. */
export type NodeDeletionReason = 'powered-off-for-deprovisioning' | 'disk-wiped' | 'image-replaced';

export interface SystemRecords {
  uuid: string;
  name: string;
  boots: BootRecord[];
  inspections: InspectionRecord[];
  diskWipes: DiskWipeRecord[];
  imageWrites: ImageWriteRecord[];
  customDeploySteps: CustomDeployStepRecord[];
  nodes: NodeRecord[];
  gracefulShutdowns: GracefulShutdownRecord[];
  raidConfigurations: RaidConfigurationRecord[];
  /** The md devices on the disks now (they outlive power cycles until a delete_configuration). */
  softwareRaidVolumes: SoftwareRaidVolumeRecord[];
}

type Omitted<T> = Omit<T, 'at'>;
/** Omit over each member of a union (plain Omit would merge the members). */
type OmittedEach<T> = T extends unknown ? Omit<T, 'at'> : never;

export class RecordStore {
  readonly #systems = new Map<string, SystemRecords>();
  readonly #now: () => Date;

  constructor(systems: readonly { uuid: string; name: string }[], now: () => Date = () => new Date()) {
    this.#now = now;
    for (const { uuid, name } of systems) {
      this.#systems.set(uuid.toLowerCase(), {
        uuid, name, boots: [], inspections: [], diskWipes: [], imageWrites: [], customDeploySteps: [], nodes: [], gracefulShutdowns: [],
        raidConfigurations: [], softwareRaidVolumes: [],
      });
    }
  }

  #for(systemUuid: string): SystemRecords {
    const records = this.#systems.get(systemUuid.toLowerCase());
    if (records === undefined) throw new Error(`no simulated system ${systemUuid}`);
    return records;
  }

  #stamp<T>(entry: T): T & { at: string } {
    return { at: this.#now().toISOString(), ...entry };
  }

  addBoot(systemUuid: string, entry: Omitted<BootRecord>): void {
    this.#for(systemUuid).boots.push(this.#stamp(entry));
  }

  addInspection(systemUuid: string, entry: Omitted<InspectionRecord>): void {
    this.#for(systemUuid).inspections.push(this.#stamp(entry));
  }

  addDiskWipe(systemUuid: string, entry: Omitted<DiskWipeRecord>): void {
    this.#for(systemUuid).diskWipes.push(this.#stamp(entry));
  }

  addImageWrite(systemUuid: string, entry: Omitted<ImageWriteRecord>): void {
    this.#for(systemUuid).imageWrites.push(this.#stamp(entry));
  }

  addCustomDeployStep(systemUuid: string, entry: Omitted<CustomDeployStepRecord>): void {
    this.#for(systemUuid).customDeploySteps.push(this.#stamp(entry));
  }

  addNode(systemUuid: string, entry: OmittedEach<NodeRecord>): void {
    this.#for(systemUuid).nodes.push(this.#stamp(entry) as NodeRecord);
  }

  addGracefulShutdown(systemUuid: string, entry: Omitted<GracefulShutdownRecord>): void {
    this.#for(systemUuid).gracefulShutdowns.push(this.#stamp(entry));
  }

  /** A RAID step ran: recorded, and the disks now carry `current` md devices. */
  addRaidConfiguration(systemUuid: string, entry: Omitted<RaidConfigurationRecord>, current: SoftwareRaidVolumeRecord[]): void {
    const records = this.#for(systemUuid);
    records.raidConfigurations.push(this.#stamp(entry));
    records.softwareRaidVolumes = structuredClone(current);
  }

  softwareRaidVolumes(systemUuid: string): SoftwareRaidVolumeRecord[] {
    return structuredClone(this.#for(systemUuid).softwareRaidVolumes);
  }

  get(systemUuid: string): SystemRecords | undefined {
    const records = this.#systems.get(systemUuid.toLowerCase());
    return records === undefined ? undefined : structuredClone(records);
  }

  all(): SystemRecords[] {
    return [...this.#systems.values()].map((records) => structuredClone(records));
  }
}
