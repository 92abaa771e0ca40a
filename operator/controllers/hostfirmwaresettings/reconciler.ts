// BMO's HostFirmwareSettingsReconciler, keyed by the BareMetalHost of the same name: creates the
// host's HostFirmwareSettings once it is registered, keeps status.settings from Ironic's BIOS
// API, shares a FirmwareSchema per registry, and validates the spec against it.
import { bareMetalHostSchema } from '../../api/baremetalhost.ts';
import type { BareMetalHost } from '../../api/baremetalhost.ts';
import { METAL3_API_VERSION } from '../../api/group-version.ts';
import type { HostFirmwareSettings } from '../../api/hostfirmwaresettings.ts';
import { HostFirmwareSettingsResource, hostFirmwareSettingsSchema } from '../../api/hostfirmwaresettings.ts';
import type { FirmwareSettingsReading, Provisioner } from '../../provisioner/provisioner.ts';
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
import { firmwareHostIdentity, firmwareReadMarker, hasFirmwareToRead } from './host-readable.ts';
import { SETTINGS_RESYNC_MS, SettingsReadSchedule } from './read-schedule.ts';
import type { FirmwareSchemaStore } from './schema-store.ts';
import type { SettingsObservation } from './settings-status.ts';
import { computeSettingsStatus } from './settings-status.ts';

/** Ironic could not answer: look again soon (BMO's provisionerRetryDelay). */
const PROVISIONER_RETRY_MS = 30_000;

export interface HostFirmwareSettingsReconcilerOptions {
  hosts: Pick<Informer<KubeObject>, 'get'>;
  settings: { client: ResourceClient<KubeObject>; cache: Pick<Informer<KubeObject>, 'get'> & Partial<Pick<Informer<KubeObject>, 'addHandler'>> };
  schemas: FirmwareSchemaStore;
  provisioner: Provisioner;
  events: EventRecorder;
  clock: Clock;
}

export class HostFirmwareSettingsReconciler implements Reconciler {
  readonly #options: HostFirmwareSettingsReconcilerOptions;
  readonly #schedule = new SettingsReadSchedule();
  /** Our creates and status writes, until the cache shows them: a lagging cache costs no GET. */
  readonly #recent: RecentWrites<KubeObject>;

  constructor(options: HostFirmwareSettingsReconcilerOptions) {
    this.#options = options;
    this.#recent = new RecentWrites({ cache: options.settings.cache });
  }

  async reconcile(request: Request, { log, signal }: ReconcileContext): Promise<Result> {
    const cachedHost = this.#options.hosts.get(request);
    if (cachedHost === undefined) this.#recent.forget(keyOf(request));
    const parsed = safeParseCached(bareMetalHostSchema, cachedHost);
    if (!parsed.success || !hasFirmwareToRead(parsed.data)) return {};
    const host = parsed.data;
    const hfs = await this.#ensureSettings(host, { log, signal });
    const now = new Date(this.#options.clock.now());
    const uid = host.metadata.uid ?? '';
    const refreshes = this.#options.provisioner.firmwareRefreshes({ host: firmwareHostIdentity(host) });
    const point = { marker: firmwareReadMarker(host), refresh: refreshes.bios, awaited: refreshes.pending?.includes('bios') };
    const due = this.#schedule.due(uid, point, now.getTime());
    const read = due || !hfs.status?.schema;
    let observed: SettingsObservation;
    if (read || !hfs.status?.schema) {
      let reading: FirmwareSettingsReading;
      try {
        reading = await this.#options.provisioner.firmwareSettings({ host: firmwareHostIdentity(host) });
      } catch (error) {
        // Ironic unreachable, refusing or not connected yet: the host controller reports those.
        log.info('could not read the firmware settings, retrying', { error: (error as Error).message, requeueAfterMs: PROVISIONER_RETRY_MS });
        return { requeueAfter: PROVISIONER_RETRY_MS };
      }
      observed = await this.#observe(host, hfs, reading);
      log.debug('read the firmware settings', { node: host.status?.provisioning.ID, settings: Object.keys(reading.settings).length });
    } else {
      const vendor = host.status?.hardware?.systemVendor;
      // Inspection ends without a BIOS refresh, so the vendor and model come from the host, not from a read.
      const schema = await this.#options.schemas.fillHardware(hfs.status.schema, { vendor: vendor?.manufacturer, model: vendor?.productName });
      observed = { settings: hfs.status.settings, schemaRef: hfs.status.schema, schema: schema?.spec.schema };
    }
    const computed = computeSettingsStatus(hfs, observed, now);
    if (computed.changed) {
      if (computed.differences.length > 0) log.info('current HostFirmwareSettings do not match the requested settings', { difference: computed.differences.join(', ') });
      // Without a fresh read only the verdict is written, never settings from a possibly stale cache.
      const { settings, schema, ...verdict } = computed.status;
      const written = await patchStatus(this.#options.settings.client, hfs, read ? { ...verdict, settings, schema } : verdict, { signal });
      this.#recent.rememberWrite(hfs, written);
    }
    // Counted once written, so a failed write reads again.
    if (read) this.#schedule.read(uid, point, now.getTime());
    for (const problem of computed.problems) {
      log.info('invalid BIOS setting', { problem });
      await this.#options.events.event(hfs, { type: 'Warning', reason: 'ValidationFailed', action: 'Validate', note: `Invalid BIOS setting: ${problem}` });
    }
    return { requeueAfter: SETTINGS_RESYNC_MS };
  }

  async #observe(host: BareMetalHost, hfs: HostFirmwareSettings, reading: FirmwareSettingsReading): Promise<SettingsObservation> {
    const vendor = host.status?.hardware?.systemVendor;
    const schema = await this.#options.schemas.ensure({
      namespace: hfs.metadata.namespace ?? '',
      owner: hfs,
      schema: reading.schema,
      vendor: vendor?.manufacturer,
      model: vendor?.productName,
    });
    return {
      settings: reading.settings,
      schemaRef: { namespace: schema.metadata.namespace ?? '', name: schema.metadata.name ?? '' },
      schema: schema.spec.schema,
    };
  }

  /**
   * BMO creates it empty at registration, owned by the host (a plain owner reference: the host's
   * deletion takes it, without waiting for it); here on the first look after registration. One a
   * user made before (to ask for settings) becomes the host's too, as with BMO.
   */
  async #ensureSettings(host: BareMetalHost, { log, signal }: Pick<ReconcileContext, 'log' | 'signal'>): Promise<HostFirmwareSettings> {
    const name = { namespace: host.metadata.namespace ?? '', name: host.metadata.name ?? '' };
    const cached = safeParseCached(hostFirmwareSettingsSchema, this.#recent.freshest(objectKey(host), this.#options.settings.cache.get(name)));
    if (cached.success) return this.#ownedByHost(cached.data, host, signal);
    const fresh = setOwnerReference(
      { apiVersion: METAL3_API_VERSION, kind: HostFirmwareSettingsResource.kind, metadata: { ...name }, spec: { settings: {} } },
      host,
    );
    try {
      const created = hostFirmwareSettingsSchema.parse(await this.#options.settings.client.create(fresh));
      this.#recent.rememberCreated(objectKey(host), created);
      log.info('created HostFirmwareSettings');
      return created;
    } catch (error) {
      // Created by someone (a user, before the host registered) and not cached yet.
      const existing = await this.#options.settings.client.get(name).catch(() => undefined);
      if (existing) return this.#ownedByHost(hostFirmwareSettingsSchema.parse(existing), host, signal);
      throw error;
    }
  }

  async #ownedByHost(hfs: HostFirmwareSettings, host: BareMetalHost, signal: AbortSignal): Promise<HostFirmwareSettings> {
    const { object, written } = await ensureOwnerReference(this.#options.settings.client, hfs, host, { signal, recent: this.#recent });
    return written ? hostFirmwareSettingsSchema.parse(object) : hfs;
  }
}
