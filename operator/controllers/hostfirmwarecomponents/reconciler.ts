// BMO's HostFirmwareComponentsReconciler, keyed by the BareMetalHost of the same name: created
// when Ironic first reports components for the host's node, status.components kept from Ironic's
// firmware API, spec.updates validated.
import { bareMetalHostSchema } from '../../api/baremetalhost.ts';
import type { BareMetalHost } from '../../api/baremetalhost.ts';
import { METAL3_API_VERSION } from '../../api/group-version.ts';
import type { FirmwareComponentStatus, HostFirmwareComponents } from '../../api/hostfirmwarecomponents.ts';
import { HostFirmwareComponentsResource, hostFirmwareComponentsSchema } from '../../api/hostfirmwarecomponents.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import type { Clock } from '../../runtime/clock.ts';
import type { EventRecorder } from '../../runtime/event-recorder.ts';
import type { Informer } from '../../runtime/informer.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { keyOf, objectKey } from '../../runtime/kube-object.ts';
import { setOwnerReference } from '../../runtime/object-references.ts';
import { ensureOwnerReference } from '../../runtime/owner-patch.ts';
import type { ReconcileContext, Reconciler, Request, Result } from '../../runtime/reconciler.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { RecentWrites } from '../../runtime/recent-writes.ts';
import { patchStatus } from '../../runtime/status.ts';
import { safeParseCached } from '../../runtime/parse-cached.ts';
import { SETTINGS_RESYNC_MS, SettingsReadSchedule, firmwareHostIdentity, firmwareReadMarker, hasFirmwareToRead } from '../hostfirmwaresettings/index.ts';
import { computeComponentsStatus } from './components-status.ts';

const PROVISIONER_RETRY_MS = 30_000;

export interface HostFirmwareComponentsReconcilerOptions {
  hosts: Pick<Informer<KubeObject>, 'get'>;
  components: { client: ResourceClient<KubeObject>; cache: Pick<Informer<KubeObject>, 'get'> & Partial<Pick<Informer<KubeObject>, 'addHandler'>> };
  provisioner: Provisioner;
  events: EventRecorder;
  clock: Clock;
}

export class HostFirmwareComponentsReconciler implements Reconciler {
  readonly #options: HostFirmwareComponentsReconcilerOptions;
  readonly #schedule = new SettingsReadSchedule();
  /** Hosts (by UID) whose last read found no components. */
  readonly #withoutComponents = new Set<string>();
  /** Our creates and status writes, until the cache shows them: a lagging cache costs no GET. */
  readonly #recent: RecentWrites<KubeObject>;

  constructor(options: HostFirmwareComponentsReconcilerOptions) {
    this.#options = options;
    this.#recent = new RecentWrites({ cache: options.components.cache });
  }

  async reconcile(request: Request, { log, signal }: ReconcileContext): Promise<Result> {
    const cachedHost = this.#options.hosts.get(request);
    if (cachedHost === undefined) this.#recent.forget(keyOf(request));
    const parsed = safeParseCached(bareMetalHostSchema, cachedHost);
    if (!parsed.success || !hasFirmwareToRead(parsed.data)) return {};
    const host = parsed.data;
    const now = new Date(this.#options.clock.now());
    const uid = host.metadata.uid ?? '';
    const refreshes = this.#options.provisioner.firmwareRefreshes({ host: firmwareHostIdentity(host) });
    const point = { marker: firmwareReadMarker(host), refresh: refreshes.firmware, awaited: refreshes.pending?.includes('firmware') };
    const due = this.#schedule.due(uid, point, now.getTime());
    let hfc = this.#cached(host);
    // The last read found no components, so none was created (BMO creates it only for drivers that report them).
    if (!due && !hfc && this.#withoutComponents.has(uid)) return { requeueAfter: SETTINGS_RESYNC_MS };
    // Never read, and an inspection under way is about to refresh the copy: its end (a new host state) brings us back.
    if (!due && point.awaited && hfc?.status?.components === undefined) return { requeueAfter: SETTINGS_RESYNC_MS };
    let components = hfc?.status?.components ?? [];
    const read = due || !hfc || hfc.status?.components === undefined;
    if (read || !hfc) {
      try {
        components = await this.#options.provisioner.firmwareComponents({ host: firmwareHostIdentity(host) });
      } catch (error) {
        log.info('could not read the firmware components, retrying', { error: (error as Error).message, requeueAfterMs: PROVISIONER_RETRY_MS });
        return { requeueAfter: PROVISIONER_RETRY_MS };
      }
      if (!hfc && components.length === 0) {
        this.#schedule.read(uid, point, now.getTime());
        this.#withoutComponents.add(uid);
        return { requeueAfter: SETTINGS_RESYNC_MS };
      }
      this.#withoutComponents.delete(uid);
      hfc ??= await this.#create(host);
      log.debug('read the firmware components', { node: host.status?.provisioning.ID, components: components.map((c) => `${c.component}=${c.currentVersion ?? ''}`) });
    }
    // One a user made (to ask for updates) before the host had it becomes the host's too, as with BMO.
    hfc = await this.#ownedByHost(hfc, host, signal);
    const computed = computeComponentsStatus(hfc, components as FirmwareComponentStatus[], now);
    if (computed.changed) {
      // Without a fresh read only the verdict is written, never components from a possibly stale cache.
      const { components: fresh, ...verdict } = computed.status;
      const written = await patchStatus(this.#options.components.client, hfc, read ? { ...verdict, components: fresh } : verdict, { signal });
      this.#recent.rememberWrite(hfc, written);
    }
    // Counted once written, so a failed write reads again.
    if (read) this.#schedule.read(uid, point, now.getTime());
    if (computed.problem) {
      log.info('invalid firmware components', { problem: computed.problem });
      await this.#options.events.event(hfc, { type: 'Warning', reason: 'ValidationFailed', action: 'Validate', note: `Invalid Firmware Components: ${computed.problem}` });
    }
    return { requeueAfter: SETTINGS_RESYNC_MS };
  }

  #cached(host: BareMetalHost): HostFirmwareComponents | undefined {
    const cached = this.#options.components.cache.get({ namespace: host.metadata.namespace ?? '', name: host.metadata.name ?? '' });
    const parsed = safeParseCached(hostFirmwareComponentsSchema, this.#recent.freshest(objectKey(host), cached));
    return parsed.success ? parsed.data : undefined;
  }

  async #ownedByHost(hfc: HostFirmwareComponents, host: BareMetalHost, signal: AbortSignal): Promise<HostFirmwareComponents> {
    const { object, written } = await ensureOwnerReference(this.#options.components.client, hfc, host, { signal, recent: this.#recent });
    return written ? hostFirmwareComponentsSchema.parse(object) : hfc;
  }

  async #create(host: BareMetalHost): Promise<HostFirmwareComponents> {
    const name = { namespace: host.metadata.namespace ?? '', name: host.metadata.name ?? '' };
    // A plain owner reference, as BMO's: the host's deletion takes it, without waiting for it.
    const fresh = setOwnerReference({ apiVersion: METAL3_API_VERSION, kind: HostFirmwareComponentsResource.kind, metadata: { ...name }, spec: { updates: [] } }, host);
    try {
      const created = hostFirmwareComponentsSchema.parse(await this.#options.components.client.create(fresh));
      this.#recent.rememberCreated(objectKey(host), created);
      return created;
    } catch (error) {
      // A user created it first (to ask for updates) and the cache has not seen it yet.
      const existing = await this.#options.components.client.get(name).catch(() => undefined);
      if (existing) return hostFirmwareComponentsSchema.parse(existing);
      throw error;
    }
  }
}
