import type { BootMode, AutomatedCleaningMode, InspectionMode } from '../api/baremetalhost-enums.ts';
import type { CustomDeploy } from '../api/custom-deploy.ts';
import type { SettingSchema } from '../api/firmwareschema.ts';
import type { FirmwareComponentStatus } from '../api/hostfirmwarecomponents.ts';
import type { HardwareDetails } from '../api/hardware-details.ts';
import type { Image } from '../api/image.ts';
import type { ProvisioningState } from '../api/provisioning-state.ts';
import type { RaidConfig } from '../api/raid.ts';
import type { RootDeviceHints } from '../api/root-device-hints.ts';
import type { BMCAccess, BMCCredentials } from '../bmc/index.ts';
import type { ProvisionerResult, RegisterResult } from './result.ts';

/** Who the host is, for naming the Ironic node (`namespace~name`) and its instance UUID. */
export interface HostIdentity {
  namespace: string;
  name: string;
  /** BareMetalHost metadata.uid: the Ironic `instance_uuid` once provisioned. */
  uid: string;
  /** Ironic node UUID from status.provisioning.ID, when known. */
  nodeId?: string;
}

export interface RegisterOptions {
  host: HostIdentity;
  bmc: BMCAccess;
  credentials: BMCCredentials;
  bootMacAddress?: string;
  bootMode: BootMode;
  architecture?: string;
  /** The credentials Secret changed since the last good registration: re-send driver_info. */
  credentialsChanged: boolean;
  /** The last attempt failed with a registration error: retry the Ironic operation. */
  retryAfterFailure: boolean;
  automatedCleaningMode: AutomatedCleaningMode;
  disablePowerOff: boolean;
  /** NICs known from an earlier inspection (HardwareData), to recreate ports after Ironic lost its DB. */
  knownMacAddresses: string[];
  /** Inspection is disabled: a boot MAC is then mandatory. */
  inspectionDisabled: boolean;
  /** spec.inspectionMode: `fast` needs an out-of-band inspect interface and sets it at creation. */
  inspectionMode?: InspectionMode;
  /** status.provisioning.image: a live ISO registers with the `ramdisk` deploy interface. */
  currentImage?: Image;
  /** A custom deploy is configured: registers with the `custom-agent` deploy interface. */
  hasCustomDeploy?: boolean;
  /** A ready PreprovisioningImage overrides the provisioner's deploy kernel/ramdisk/ISO. */
  preprovisioningImage?: PreprovisioningImage;
  /**
   * The ramdisk's network data for the node's `network_data` (BMO sets it when no
   * PreprovisioningImage builder runs, and Ironic puts it into the ramdisk); undefined leaves it.
   */
  ramdiskNetworkData?: Record<string, unknown>;
  /**
   * Where the host is (BMO's ManagementAccessData.State and OperationalStatus): with a
   * PreprovisioningImage builder, the states that boot the ramdisk need an image.
   */
  state?: ProvisioningState;
  servicing?: boolean;
}

/** The ramdisk a PreprovisioningImage built for this host (BMO's `provisioner.PreprovisioningImage`). */
export interface PreprovisioningImage {
  format: 'iso' | 'initrd';
  imageUrl: string;
  /** For `initrd`: the kernel to boot it with; the provisioner's deploy kernel otherwise. */
  kernelUrl?: string;
  extraKernelParams?: string;
}

export interface InspectOptions {
  host: HostIdentity;
  mode: 'agent' | 'fast';
  retryAfterFailure: boolean;
  /** Start a new inspection even if Ironic already holds an inventory (re-inspection). */
  refresh: boolean;
  /** A forced reboot was asked for (reboot annotation with force): abort a waiting inspection. */
  forceReboot?: boolean;
  bootMode?: BootMode;
  architecture?: string;
  /** The host's BMC, for its out-of-band inspect interface in `fast` mode (else `redfish`). */
  bmc?: BMCAccess;
}

export interface PrepareOptions {
  host: HostIdentity;
  /** Target RAID layout (spec.raid). */
  raid?: RaidConfig;
  /**
   * The layout last applied (status.provisioning.raid); undefined after a preparation error
   * or when never applied. Clean steps run only when it differs from `raid`.
   */
  actualRaid?: RaidConfig;
  rootDeviceHints?: RootDeviceHints;
  retryAfterFailure: boolean;
  /** The host's BMC, for its RAID interface; the node's current one is used when absent. */
  bmc?: BMCAccess;
  /** BIOS settings to change (HostFirmwareSettings spec entries that differ from status). */
  firmwareSettings?: Array<{ name: string; value: string | number }>;
  /** Firmware components to flash (HostFirmwareComponents updates not yet applied). */
  firmwareUpdates?: Array<{ component: string; url: string }>;
}

/** BMO's ServicingData: firmware changes for a provisioned host, run by Ironic servicing. */
export interface ServiceOptions {
  host: HostIdentity;
  /** BIOS settings to change (allowed by the HostUpdatePolicy, valid and differing from status). */
  firmwareSettings?: Array<{ name: string; value: string | number }>;
  /** Firmware components to flash (allowed by the HostUpdatePolicy, not started yet). */
  firmwareUpdates?: Array<{ component: string; url: string }>;
  /**
   * BMO's HasFirmwareSpec: the allowed specs still ask for something. When the user withdrew
   * every change, a failed or waiting service is aborted.
   */
  hasFirmwareSpec: boolean;
  /** BMO's `unprepared`: changes are pending, so an active node starts servicing. */
  changesPending: boolean;
  /** The last attempt failed with a servicing error: start it again. */
  retryAfterFailure: boolean;
}

export interface ConfigDrive {
  meta_data: Record<string, unknown>;
  user_data?: string;
  network_data?: Record<string, unknown>;
}

export interface ProvisionOptions {
  host: HostIdentity;
  image?: Image;
  customDeploy?: CustomDeploy;
  configDrive?: ConfigDrive;
  rootDeviceHints?: RootDeviceHints;
  bootMode: BootMode;
  /** A forced reboot was asked for while the deploy ramdisk waits: undeploy to boot a new one. */
  forceReboot?: boolean;
  /** Registry credentials for oci:// images, `username:password` (`instance_info.image_pull_secret`). */
  imagePullSecret?: string;
}

export interface AdoptOptions {
  host: HostIdentity;
  retryAfterFailure: boolean;
  /** The host is deprovisioning: a manageable node is left for deprovision to `provide`. */
  deprovisioning?: boolean;
}

export interface DeprovisionOptions {
  host: HostIdentity;
  automatedCleaningMode: AutomatedCleaningMode;
  retryAfterFailure: boolean;
}

export interface PowerOptions {
  host: HostIdentity;
  /** Hard power changes skip the graceful attempt (BMO: after an earlier failure, or on request). */
  mode: 'soft' | 'hard';
  /** Interrupt an inspection or cleaning in progress to change power. */
  force: boolean;
  /** spec.automatedCleaningMode: with `disabled`, a waiting automated clean is aborted to power off. */
  automatedCleaningMode?: AutomatedCleaningMode;
}

export interface DeleteOptions {
  host: HostIdentity;
  /**
   * Past the deletion deadline: stop waiting for whatever the back end is doing with the node
   * and remove it anyway (Ironic: maintenance on, then delete; a lock is waited out).
   */
  forceRemoval?: boolean;
}

export interface HardwareState {
  poweredOn?: boolean;
}

/** The BIOS settings the BMC reports, by name, and the registry entry of each. */
export interface FirmwareSettingsReading {
  settings: Record<string, string>;
  schema: Record<string, SettingSchema>;
}

/** The host's virtual media as the BMC reports it (BMO's GetDataImageStatus). */
export interface DataImageReading {
  /** A virtual CD or DVD holds an image. */
  attached: boolean;
  /**
   * Why the last attach or detach failed, when it did: they run after the request was accepted,
   * so their failures only show on the node (Ironic's last_error).
   */
  lastFailure?: string;
}

/** BMO's BMCEventSubscription as the BMC gets it: where events go, with what context and headers. */
export interface EventSubscriptionRequest {
  destination: string;
  context: string;
  /** One `{name: value}` per header, values from the user's Secret: never logged or recorded. */
  httpHeaders: Record<string, string>[];
}

/**
 * The server's health as its BMC last reported it (Ironic's node `health`, API 1.109):
 * `OK`, `Warning` or `Critical`; undefined when not known.
 */
export type NodeHealth = string | undefined;

/** The copies of a node's firmware the back end caches: BIOS settings and firmware components. */
export type FirmwareCopy = 'bios' | 'firmware';

/**
 * Per copy of the firmware the back end caches, a number that changes each time this process saw
 * an operation that can change the copy end on the host's node; none for a copy it has not seen
 * so refreshed (e.g. since it started). `pending`: copies such an operation, still under way, will
 * refresh, so a read now would be outdated at once.
 */
export interface FirmwareRefreshes {
  bios?: number;
  firmware?: number;
  pending?: readonly FirmwareCopy[];
}

/** A node's digest (as `nodeDigests` gives it) when a call last read the node, and when. */
export interface NodeRead {
  digest: string;
  atMs: number;
}

/** Why a host's BMC fails the back end, in the back end's own words (`detail`). */
export interface BmcProblem {
  kind: 'not answering' | 'refuses credentials';
  detail: string;
}

/**
 * The seam between the BareMetalHost state machine and what actually runs
 * servers: Ironic in production, an in-memory fixture in unit tests and scale
 * runs. Every call is idempotent and cheap to repeat: the controller calls
 * them on every reconcile and trusts them to find their own progress.
 */
export interface Provisioner {
  register(options: RegisterOptions): Promise<RegisterResult>;
  inspect(options: InspectOptions): Promise<ProvisionerResult<{ hardware: HardwareDetails }>>;
  prepare(options: PrepareOptions): Promise<ProvisionerResult>;
  /** Firmware changes on a deployed node without re-imaging it (Ironic servicing); done when the node is active again. */
  service(options: ServiceOptions): Promise<ProvisionerResult>;
  provision(options: ProvisionOptions): Promise<ProvisionerResult>;
  /** Re-adopt a provisioned node (after Ironic lost its database) without touching its disks. */
  adopt(options: AdoptOptions): Promise<ProvisionerResult>;
  deprovision(options: DeprovisionOptions): Promise<ProvisionerResult>;
  powerOn(options: PowerOptions): Promise<ProvisionerResult>;
  powerOff(options: PowerOptions): Promise<ProvisionerResult>;
  hardwareState(options: { host: HostIdentity }): Promise<HardwareState>;
  /**
   * BMO's GetHealth, without a request of its own: the health on the host's node as the
   * provisioner last read it (every pass reads the node), or undefined.
   */
  health(options: { host: HostIdentity }): NodeHealth;
  /**
   * Like health, from the last read: why the host's BMC fails the back end (it does not answer,
   * or refuses the credentials), or undefined while it works or nothing says otherwise.
   */
  bmcProblem(options: { host: HostIdentity }): BmcProblem | undefined;
  /** BMO's GetFirmwareSettings: the node's BIOS settings and their schema as the back end cached them. */
  firmwareSettings(options: { host: HostIdentity }): Promise<FirmwareSettingsReading>;
  /** BMO's GetFirmwareComponents: the node's firmware components and versions as the back end cached them. */
  firmwareComponents(options: { host: HostIdentity }): Promise<FirmwareComponentStatus[]>;
  /** When the back end last refreshed its copies, as far as this process saw (no request); empty when it cannot tell. */
  firmwareRefreshes(options: { host: HostIdentity }): FirmwareRefreshes;
  /** BMO's GetDataImageStatus; busy while the node is locked (BMO's ErrNodeIsBusy), failed when it cannot be read. */
  dataImageStatus(options: { host: HostIdentity }): Promise<ProvisionerResult<DataImageReading>>;
  /** BMO's AttachDataImage: insert the image at `url` into the host's virtual CD. Done once the request is accepted. */
  attachDataImage(options: { host: HostIdentity; url: string }): Promise<ProvisionerResult>;
  /** BMO's DetachDataImage: eject the host's virtual media. Done once the request is accepted. */
  detachDataImage(options: { host: HostIdentity }): Promise<ProvisionerResult>;
  /** BMO's AddBMCEventSubscriptionForNode: a Redfish event subscription on the host's BMC; done with its Id there. */
  addEventSubscription(options: { host: HostIdentity; subscription: EventSubscriptionRequest }): Promise<ProvisionerResult<{ subscriptionId: string }>>;
  /** BMO's RemoveBMCEventSubscriptionForNode; a subscription or node already gone counts as done. */
  removeEventSubscription(options: { host: HostIdentity; subscriptionId: string }): Promise<ProvisionerResult>;
  /**
   * What every node looks like now, in one look (a node list, not a request per host): a digest
   * per node id of what a host at rest mirrors (power, provisioning state, maintenance, fault,
   * last error, health). Hosts at rest are not polled; a changed digest is what wakes one.
   */
  nodeDigests(): Promise<ReadonlyMap<string, string>>;
  /**
   * The node's digest as any call last read it, and when (on the provisioner's clock), without a
   * request: a look differing from what the host last saw wakes it, even when a look in between
   * missed the change. Undefined when never read.
   */
  lastNodeRead(nodeId: string): NodeRead | undefined;
  /** Remove the node from the back end. Done when it is gone; a missing node counts as done. */
  delete(options: DeleteOptions): Promise<ProvisionerResult>;
  /** Remove the node without deprovisioning (the detached annotation). */
  detach(options: DeleteOptions & { force: boolean }): Promise<ProvisionerResult>;
}
