import { BareMetalHostResource } from '../../api/baremetalhost.ts';
import { DataImageResource, dataImageSchema } from '../../api/dataimage.ts';
import { HardwareDataResource } from '../../api/hardwaredata.ts';
import { HostFirmwareComponentsResource, hostFirmwareComponentsSchema } from '../../api/hostfirmwarecomponents.ts';
import { HostFirmwareSettingsResource, hostFirmwareSettingsSchema } from '../../api/hostfirmwaresettings.ts';
import { HostUpdatePolicyResource } from '../../api/hostupdatepolicy.ts';
import { PreprovisioningImageResource } from '../../api/preprovisioningimage.ts';
import { patchStatus } from '../../runtime/status.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import type { Controller } from '../../runtime/controller.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import type { Manager } from '../../runtime/manager.ts';
import { objectName } from '../../runtime/kube-object.ts';
import type { Predicate } from '../../runtime/predicates.ts';
import { or } from '../../runtime/predicates.ts';
import { OwnWrites } from '../../runtime/own-writes.ts';
import { SecretResource } from '../../runtime/resources.ts';
import { safeParseCached } from '../../runtime/parse-cached.ts';
import { NodeSweep } from './node-sweep.ts';
import { holdsProvisioningSlot } from './capacity.ts';
import { DELAYS, QUICK_BUSY_SWEEP } from './delays.ts';
import { EVENT_SOURCE } from './events.ts';
import { HardwareDataStore } from './hardware-data-store.ts';
import { hardwareLabelsChanged } from './hardware-labels-sync.ts';
import { createHostMetrics } from './metrics.ts';
import type { HostSummary } from './metrics.ts';
import { firmwareComponentsSeenChanged, firmwareSettingsSeenChanged, hostChanged, secretContentChanged } from './predicates.ts';
import { BareMetalHostReconciler } from './reconciler.ts';
import { CLAIMED_SECRET_SELECTOR, SecretStore } from '../../secrets/index.ts';
import type { SecretObject } from '../../secrets/index.ts';
import type { StateMachineSettings } from './state-context.ts';
import { UpdatePolicyStore } from './update-policy-store.ts';
import { PreprovisioningImageStore } from './preprovisioning-image-store.ts';
import { inPolledState, waitsOutError } from './poll-schedule.ts';
import type { PollBounds } from './poll-schedule.ts';

export const CONTROLLER_NAME = 'baremetalhost';

export interface BareMetalHostControllerOptions {
  provisioner: Provisioner;
  settings: StateMachineSettings;
  /** PROVISIONING_LIMIT: hosts at once in inspecting, provisioning or deprovisioning over the provisioning network. */
  provisioningLimit: number;
  /** IRONIC_POLL_SHORT / IRONIC_POLL_LONG: floor and cap of the measured poll schedule (poll-schedule.ts). */
  pollBounds?: PollBounds;
  /** Hosts reconciled at once (BMO_CONCURRENCY); one host is never reconciled twice at a time. */
  maxConcurrentReconciles: number;
  /** Keep hardware.metal3.io/ labels from status.hardware (HARDWARE_LABELS). */
  hardwareLabels?: boolean;
  /** BMO's --build-preprov-image: hosts create and wait for their PreprovisioningImage. */
  preprovisioningImages?: boolean;
  random?: () => number;
}

const isDelayed = (host: KubeObject) => summaryOf(host).operationalStatus === 'delayed';

/** A host whose stored status just gave up its PROVISIONING_LIMIT slot. */
const slotFreed: Predicate = {
  create: () => false,
  update: (oldHost, newHost) => holdsProvisioningSlot(oldHost) && !holdsProvisioningSlot(newHost),
  delete: (host) => holdsProvisioningSlot(host),
};

function summaryOf(host: KubeObject): HostSummary {
  const status = (host.status ?? {}) as { operationalStatus?: string; provisioning?: { state?: string } };
  return { state: status.provisioning?.state ?? '', operationalStatus: status.operationalStatus ?? '' };
}

/**
 * Wires the BareMetalHost controller into a manager: hosts (status-only updates ignored),
 * the Secrets hosts claimed (labelled cache, any owner reference), and the HardwareData
 * they control.
 */
export function setupBareMetalHostController(manager: Manager, options: BareMetalHostControllerOptions): Controller {
  const hostCache = manager.informer<KubeObject>(BareMetalHostResource);
  const secrets = new SecretStore({
    client: manager.client<SecretObject>(SecretResource),
    cache: manager.informer<SecretObject>(SecretResource, { labelSelector: CLAIMED_SECRET_SELECTOR }),
  });
  // Made before the controller it wakes, as is the sweep below.
  let wake: (host: ObjectName) => void = () => {};
  // A HardwareData has its host's name.
  const hardwareData = new HardwareDataStore({ client: manager.client(HardwareDataResource), cache: manager.informer(HardwareDataResource), wakeHost: (data) => wake(objectName(data)) });
  const firmwareSettingsCache = manager.informer(HostFirmwareSettingsResource);
  const componentsCache = manager.informer(HostFirmwareComponentsResource);
  const componentsClient = manager.client(HostFirmwareComponentsResource);
  const dataImageCache = manager.informer(DataImageResource);
  const dataImageClient = manager.client(DataImageResource);
  const { provisioner } = options;
  // Made before the controller, so the reconciler can ask whether it watches.
  const sweep = new NodeSweep({
    nodeDigests: () => provisioner.nodeDigests(),
    lastNodeRead: (nodeId) => provisioner.lastNodeRead(nodeId),
    hosts: hostCache,
    wake: (host) => wake(host),
    restIntervalMs: DELAYS.atRestSweepMs,
    busyIntervalMs: options.pollBounds?.shortMs ?? DELAYS.atRestSweepMs,
    ...(options.pollBounds ? { quickBusyInterval: QUICK_BUSY_SWEEP } : {}),
    isBusy: inPolledState,
    waitsOutError,
    clock: manager.clock,
    log: manager.logger.child({ component: 'node-sweep' }),
  });
  const hostOwnWrites = new OwnWrites({ cache: hostCache, redeliver: (host) => wake(objectName(host)) });
  const reconciler = new BareMetalHostReconciler({
    hosts: { client: manager.client(BareMetalHostResource), cache: hostCache, ownWrites: hostOwnWrites },
    secrets,
    hardwareData,
    firmwareSettings: { get: (name) => safeParseCached(hostFirmwareSettingsSchema, firmwareSettingsCache.get(name)).data },
    firmwareComponents: {
      get: (name) => safeParseCached(hostFirmwareComponentsSchema, componentsCache.get(name)).data,
      recordUpdates: async (name, updates) => {
        const cached = componentsCache.get(name);
        if (cached) await patchStatus(componentsClient, cached, { updates });
      },
    },
    dataImages: {
      get: (name) => safeParseCached(dataImageSchema, dataImageCache.get(name)).data,
      writeStatus: async (image, status) => {
        await patchStatus(dataImageClient, image, status);
      },
    },
    ...(options.preprovisioningImages
      ? { preprovisioningImages: new PreprovisioningImageStore({ client: manager.client(PreprovisioningImageResource), cache: manager.informer(PreprovisioningImageResource), secrets }) }
      : {}),
    updatePolicies: new UpdatePolicyStore({ client: manager.client(HostUpdatePolicyResource), cache: manager.informer(HostUpdatePolicyResource) }),
    provisioner: options.provisioner,
    events: manager.eventRecorder(EVENT_SOURCE),
    metrics: createHostMetrics(manager.registry, { hosts: () => hostCache.list().map(summaryOf) }),
    settings: options.settings,
    provisioningLimit: options.provisioningLimit,
    // Only a sweep at the short interval stands in for a host's own polls.
    ...(options.pollBounds ? { pollBounds: options.pollBounds, nodeListWatching: () => sweep.watching() } : {}),
    hardwareLabels: options.hardwareLabels ?? false,
    clock: manager.clock,
    ...(options.random ? { random: options.random } : {}),
  });
  const builder = manager
    .controller(CONTROLLER_NAME)
    // With hardware labels on, a hand edit of one of them wakes the host so it is put right.
    // The own-writes filter first, so every event reaches it and its entries go with them.
    .for(BareMetalHostResource, { predicates: [hostOwnWrites.filter, options.hardwareLabels ? or(hostChanged, hardwareLabelsChanged) : hostChanged] })
    // A freed PROVISIONING_LIMIT slot goes to a waiting host now, not at its 1-2 minute retry.
    .watches(BareMetalHostResource, () => hostCache.list().filter(isDelayed).map(objectName), { predicates: [slotFreed] })
    .owns(SecretResource, { controllerOnly: false, labelSelector: CLAIMED_SECRET_SELECTOR, predicates: [secretContentChanged as Predicate] })
    .owns(HardwareDataResource, { predicates: [hardwareData.notOwnWrites] })
    // A HostFirmwareSettings status with a new verdict may send an available host to preparing.
    .watches(HostFirmwareSettingsResource, (settings) => [objectName(settings)], { predicates: [firmwareSettingsSeenChanged] })
    .watches(HostFirmwareComponentsResource, (components) => [objectName(components)], { predicates: [firmwareComponentsSeenChanged] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles });
  // A PreprovisioningImage made ready (or failing) wakes its host at once, not at the 5-minute retry.
  if (options.preprovisioningImages) builder.owns(PreprovisioningImageResource);
  const controller = builder.complete(reconciler);
  // A host whose node moved on in Ironic goes ahead of passes that start something new (a new
  // host's registration above all): acting on an operation's end at once keeps Ironic fed, where
  // a line of a hundred new hosts' first passes held every inspection back until all were enrolled.
  wake = (host) => controller.enqueue(host, { urgent: true });
  manager.add(sweep);
  return controller;
}
