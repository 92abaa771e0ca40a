import type { ErrorType } from '../../api/error-type.ts';
import type { DataImage, DataImageStatus } from '../../api/dataimage.ts';
import type { HardwareData } from '../../api/hardwaredata.ts';
import type { HardwareDetails } from '../../api/hardware-details.ts';
import type { HostUpdatePolicySpec } from '../../api/hostupdatepolicy.ts';
import type { ProvisioningState } from '../../api/provisioning-state.ts';
import type { BMCAccess, BMCCredentials } from '../../bmc/index.ts';
import type { HostConfigResult } from '../../configdrive/index.ts';
import type { ConfigDrive } from '../../provisioner/provisioner.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { FirmwareSettingChange } from '../hostfirmwaresettings/index.ts';
import type { HostEvent } from './events.ts';
import type { ImagePullSecretResult } from './image-pull-secret-reader.ts';
import type { PreprovisioningImageOutcome, WantedPreprovisioningImage } from './preprovisioning-image-store.ts';

/** The operations whose durations BMO records in operationHistory and histograms. */
export type Operation = 'register' | 'inspect' | 'provision' | 'deprovision';

/** A metric to bump once the status is saved (BMO's post-save callbacks). */
export type MetricNote =
  | { metric: 'hostUnmanaged' }
  | { metric: 'registrationRequired' }
  | { metric: 'credentialsUpdated' }
  | { metric: 'hostError'; errorType: ErrorType }
  | { metric: 'powerChange'; on: boolean }
  | { metric: 'delayed'; deprovisioning: boolean }
  | { metric: 'stateChange'; from: ProvisioningState; to: ProvisioningState }
  | { metric: 'operationDuration'; operation: Operation; seconds: number }
  | { metric: 'deleteWithoutDeprovisioning' }
  | { metric: 'deleteWithoutPoweringOff' }
  | { metric: 'deleteDelayedForDetached' }
  | { metric: 'hostConfigDataError'; dataType: string }
  | { metric: 'waitingForPreprovImage' };

/** Kubernetes work a handler may need, kept behind functions so handlers stay testable without an API server. */
export interface HostPorts {
  /** Creates (or re-creates) the host's HardwareData with these details. */
  replaceHardwareData(details: HardwareDetails): Promise<void>;
  /** Reads the userData, networkData and metaData Secrets into a config drive. */
  readConfigDrive(): Promise<HostConfigResult<ConfigDrive | undefined>>;
  /** The ramdisk's network data from `preprovisioningNetworkDataName`, parsed; undefined when none is named or it is empty. */
  readPreprovisioningNetworkData(): Promise<HostConfigResult<Record<string, unknown> | undefined>>;
  /** Registry credentials (`username:password`) for an oci:// image from its `ociAuthSecretName`. */
  readImagePullSecret(): Promise<ImagePullSecretResult>;
  /** Removes annotations from the host (a metadata patch, not a status write). */
  removeAnnotations(keys: string[]): Promise<void>;
  /** Records in the HostFirmwareComponents status that these updates were started (BMO's status.updates). */
  recordFirmwareUpdates(updates: Array<{ component: string; url: string }>): Promise<void>;
  /** The host's DataImage (same name), if there is one. */
  readDataImage(): DataImage | undefined;
  /** Merge-patches the DataImage's status. */
  writeDataImageStatus(image: DataImage, status: DataImageStatus): Promise<void>;
  /**
   * BMO's acquireHostUpdatePolicy: the host's HostUpdatePolicy (same name), given the host as
   * an owner when it lacks it; undefined when there is none.
   */
  acquireUpdatePolicy(): Promise<HostUpdatePolicySpec | undefined>;
  /**
   * Lets go of the BMC Secrets the host claimed before its credentialsName changed: their
   * owner reference to the host goes, and our finalizer unless another live host logs in with
   * them (BMO keeps both until the host is deleted, so deleting a replaced Secret hangs).
   */
  letGoOfFormerCredentials(): Promise<void>;
  /**
   * BMO's getPreprovImage, only with --build-preprov-image: the host's PreprovisioningImage
   * created or brought in line with `wanted`, and its image once ready for it.
   */
  preprovisioningImage?(wanted: WantedPreprovisioningImage): Promise<PreprovisioningImageOutcome>;
}

/** The credentials Secret as status.triedCredentials/goodCredentials record it. */
export interface CredentialsSecretRef {
  name: string;
  namespace: string;
  resourceVersion: string;
}

export interface HostCredentials {
  access: BMCAccess;
  login: BMCCredentials;
  secret: CredentialsSecretRef;
}

export interface StateMachineSettings {
  /** Provisioning attempts per image before giving up; 0 means unlimited. */
  maxProvisioningRetries: number;
  /** After this long in deletion, remaining cleanup steps are skipped; 0 means never. */
  deletionTimeoutMs: number;
}

/** Everything a state handler may use besides the host draft. */
export interface StateContext {
  provisioner: Provisioner;
  /** Loaded and valid; absent only for unmanaged hosts and for deletions without usable credentials. */
  credentials?: HostCredentials;
  hardwareData?: HardwareData;
  /** HostFirmwareSettings spec entries found valid and not yet applied (BMO's getHostFirmwareSettings). */
  firmwareSettingChanges?: FirmwareSettingChange[];
  /** HostFirmwareComponents updates found valid and not started yet. */
  firmwareUpdates?: Array<{ component: string; url: string }>;
  /** Whether the HostFirmwareSettings spec names any setting and the HostFirmwareComponents spec any update (BMO's HasFirmwareSpec). */
  firmwareSpec?: { settings: boolean; updates: boolean };
  settings: StateMachineSettings;
  ports: HostPorts;
  /** A PROVISIONING_LIMIT slot for this host: true when it holds one or one was free (and is now its). */
  takeProvisioningSlot(): boolean;
  now(): Date;
  random(): number;
  log: Logger;
  /** Collected during the pass, published by the reconciler after saving. */
  events: HostEvent[];
  metrics: MetricNote[];
}

export function publish(context: StateContext, event: HostEvent): void {
  context.events.push(event);
}

export function note(context: StateContext, metric: MetricNote): void {
  context.metrics.push(metric);
}
