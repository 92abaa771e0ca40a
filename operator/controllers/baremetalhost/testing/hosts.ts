import { bareMetalHostSchema } from '../../../api/baremetalhost.ts';
import type { BareMetalHostInput } from '../../../api/baremetalhost.ts';
import type { BareMetalHostStatusInput } from '../../../api/baremetalhost-status.ts';
import type { BareMetalHostSpecInput } from '../../../api/baremetalhost-spec.ts';
import { bareMetalHostStatusSchema } from '../../../api/baremetalhost-status.ts';
import type { DataImage, DataImageStatus } from '../../../api/dataimage.ts';
import { BAREMETALHOST_FINALIZER } from '../../../api/finalizers.ts';
import type { HardwareDetails } from '../../../api/hardware-details.ts';
import type { HostUpdatePolicySpec } from '../../../api/hostupdatepolicy.ts';
import { bmcAccessFor } from '../../../bmc/index.ts';
import type { Provisioner } from '../../../provisioner/provisioner.ts';
import { silentLogger } from '../../../runtime/logger.ts';
import type { Host } from '../host.ts';
import type { HostCredentials, StateContext } from '../state-context.ts';

export const TEST_NOW = new Date('2026-05-01T12:00:00Z');
export const BMC_ADDRESS = 'redfish://127.0.0.1:8000/redfish/v1/Systems/1';

export interface HostOverrides {
  metadata?: Partial<BareMetalHostInput['metadata']>;
  spec?: Partial<BareMetalHostSpecInput>;
  status?: BareMetalHostStatusInput & { provisioning?: { state?: string } };
}

/** A parsed host with a status draft; defaults: registered-ready spec with a redfish BMC. */
export function hostFor(overrides: HostOverrides = {}): Host {
  const parsed = bareMetalHostSchema.parse({
    apiVersion: 'metal3.io/v1alpha1',
    kind: 'BareMetalHost',
    metadata: { name: 'host-0', namespace: 'test', uid: 'uid-0', generation: 1, resourceVersion: '1', finalizers: [BAREMETALHOST_FINALIZER], ...overrides.metadata },
    spec: { online: true, bmc: { address: BMC_ADDRESS, credentialsName: 'bmc-secret' }, ...overrides.spec },
    status: overrides.status,
  });
  return { ...parsed, status: parsed.status ?? bareMetalHostStatusSchema.parse({}) };
}

export function credentialsFor(resourceVersion = '10'): HostCredentials {
  const access = bmcAccessFor({ address: BMC_ADDRESS });
  if (!access.ok) throw access.error;
  return { access: access.access, login: { username: 'admin', password: 'secret' }, secret: { name: 'bmc-secret', namespace: 'test', resourceVersion } };
}

export interface TestContext extends StateContext {
  removedAnnotations: string[][];
  storedHardware: HardwareDetails[];
  /** Updates the preparing handler recorded as started in HostFirmwareComponents. */
  recordedUpdates: Array<Array<{ component: string; url: string }>>;
  /** The host's DataImage as the ports read it; status writes land here (and in dataImageWrites). */
  dataImage: { current?: DataImage };
  dataImageWrites: DataImageStatus[];
  /** The host's HostUpdatePolicy, as acquireUpdatePolicy answers; tests set it. */
  updatePolicy: HostUpdatePolicySpec | undefined;
  /** How many times the policy was acquired. */
  policyLookups: number;
  /** How many times the host let go of the BMC Secrets it no longer names. */
  formerCredentialsLetGo: number;
  /** The ramdisk network data readPreprovisioningNetworkData answers; tests set it. */
  preprovisioningNetworkData: Record<string, unknown> | undefined;
}

/** A state context with recording ports, a fixed clock and valid credentials. */
export function contextFor(provisioner: Provisioner, overrides: Partial<StateContext> = {}): TestContext {
  const removedAnnotations: string[][] = [];
  const storedHardware: HardwareDetails[] = [];
  const recordedUpdates: Array<Array<{ component: string; url: string }>> = [];
  const dataImage: { current?: DataImage } = {};
  const dataImageWrites: DataImageStatus[] = [];
  const context: TestContext = {
    provisioner,
    credentials: credentialsFor(),
    settings: { maxProvisioningRetries: 5, deletionTimeoutMs: 60 * 60_000 },
    ports: {
      replaceHardwareData: async (details) => {
        storedHardware.push(details);
      },
      readConfigDrive: async () => ({ ok: true, value: { meta_data: { uuid: 'uid-0' } } }),
      readPreprovisioningNetworkData: async () => ({ ok: true, value: context.preprovisioningNetworkData }),
      readImagePullSecret: async () => ({ ok: true, credentials: undefined }),
      removeAnnotations: async (keys) => {
        removedAnnotations.push([...keys]);
      },
      recordFirmwareUpdates: async (updates) => {
        recordedUpdates.push(structuredClone(updates));
      },
      readDataImage: () => structuredClone(dataImage.current),
      writeDataImageStatus: async (_image, status) => {
        dataImageWrites.push(structuredClone(status));
        if (dataImage.current) dataImage.current = { ...dataImage.current, status: { ...dataImage.current.status, ...structuredClone(status) } };
      },
      acquireUpdatePolicy: async () => {
        context.policyLookups += 1;
        return context.updatePolicy;
      },
      letGoOfFormerCredentials: async () => {
        context.formerCredentialsLetGo += 1;
      },
    },
    takeProvisioningSlot: () => true,
    now: () => TEST_NOW,
    random: () => 0,
    log: silentLogger(),
    events: [],
    metrics: [],
    removedAnnotations,
    storedHardware,
    recordedUpdates,
    dataImage,
    dataImageWrites,
    updatePolicy: undefined,
    policyLookups: 0,
    formerCredentialsLetGo: 0,
    preprovisioningNetworkData: undefined,
    ...overrides,
  };
  return context;
}

/** Event reasons published so far. */
export function reasonsOf(context: StateContext): string[] {
  return context.events.map((event) => event.reason);
}

/** A host already known to the provisioner, with good credentials recorded. */
export function registeredStatus(state: string, extra: BareMetalHostStatusInput = {}): BareMetalHostStatusInput {
  const credentials = { credentials: { name: 'bmc-secret', namespace: 'test' }, credentialsVersion: '10' };
  return {
    operationalStatus: 'OK',
    hardwareProfile: 'unknown',
    goodCredentials: credentials,
    triedCredentials: credentials,
    lastUpdated: '2026-05-01T11:00:00Z',
    ...extra,
    provisioning: { ID: 'in-memory-1', rootDeviceHints: { deviceName: '/dev/sda' }, bootMode: 'UEFI', ...extra.provisioning, state: state as never },
  };
}
