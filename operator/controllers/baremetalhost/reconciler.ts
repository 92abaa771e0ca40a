import { DELETE_FOR_MOVE_ANNOTATION, PAUSED_ANNOTATION } from '../../api/annotations.ts';
import { bareMetalHostSchema } from '../../api/baremetalhost.ts';
import { bareMetalHostStatusSchema } from '../../api/baremetalhost-status.ts';
import type { DataImage, DataImageStatus } from '../../api/dataimage.ts';
import { BAREMETALHOST_FINALIZER } from '../../api/finalizers.ts';
import type { HostFirmwareComponents } from '../../api/hostfirmwarecomponents.ts';
import type { HostFirmwareSettings } from '../../api/hostfirmwaresettings.ts';
import type { ProvisioningState } from '../../api/provisioning-state.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import { NeedsRegistrationError, TransientProvisionerError } from '../../provisioner/result.ts';
import type { Clock } from '../../runtime/clock.ts';
import { systemClock } from '../../runtime/clock.ts';
import { formatTime } from '../../runtime/conditions.ts';
import { TerminalError } from '../../runtime/errors.ts';
import type { EventRecorder } from '../../runtime/event-recorder.ts';
import { hasFinalizer } from '../../runtime/finalizers.ts';
import type { Informer } from '../../runtime/informer.ts';
import { isConflict } from '../../runtime/kube-errors.ts';
import { keyOf, objectKey, objectName } from '../../runtime/kube-object.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { ReconcileContext, Reconciler, Request, Result } from '../../runtime/reconciler.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { safeParseCached } from '../../runtime/parse-cached.ts';
import { pendingFirmwareUpdates } from '../hostfirmwarecomponents/index.ts';
import { pendingSettingChanges } from '../hostfirmwaresettings/index.ts';
import type { Action } from './action.ts';
import { holdsProvisioningSlot } from './capacity.ts';
import { withJitter } from './backoff.ts';
import { bmcAnsweringChange } from './bmc-answering.ts';
import { computeConditions } from './conditions.ts';
import { readConfigDrive, readPreprovisioningNetworkData } from './config-drive-reader.ts';
import { readImagePullSecret } from './image-pull-secret-reader.ts';
import { loadHostCredentials } from './credentials-loader.ts';
import type { CredentialsOutcome } from './credentials-loader.ts';
import { DELAYS } from './delays.ts';
import { nextDeletionDeadlineInMs } from './deletion-budget.ts';
import { eventActionFor } from './event-actions.ts';
import type { HostEvent } from './events.ts';
import { warning } from './events.ts';
import type { HardwareDataAccess } from './hardware-data-store.ts';
import { hardwareLabelsPatch, wantedHardwareLabels } from './hardware-labels-sync.ts';
import { consumeHardwareDetails, reconcileHostData } from './host-data.ts';
import type { HostDataStep } from './host-data.ts';
import { HostSession } from './host-session.ts';
import { recordError } from './host-status.ts';
import type { Host } from './host.ts';
import { identityOf, isDeleting, stateOf } from './host.ts';
import { changedFields, createMergePatch } from './merge-patch.ts';
import type { HostMetrics } from './metrics.ts';
import { ProvisionerAccessDeniedError, ProvisionerNotReadyError, ProvisionerUnreachableError } from './provisioner-not-ready.ts';
import { ProvisioningSlots } from './provisioning-slots.ts';
import { POLLED_STATES, PollSchedule } from './poll-schedule.ts';
import type { PollBounds } from './poll-schedule.ts';
import type { OwnWrites } from '../../runtime/own-writes.ts';
import { RecentWrites } from '../../runtime/recent-writes.ts';
import { requeueFor, wakeByDeadline } from './requeue.ts';
import type { ClaimedSecretAccess } from '../../secrets/index.ts';
import type { HostCredentials, StateContext, StateMachineSettings } from './state-context.ts';
import type { UpdatePolicyAccess } from './update-policy-store.ts';
import type { PreprovisioningImageAccess } from './preprovisioning-image-store.ts';
import { reconcileState } from './state-machine.ts';

/** States one pass may go through: enough for registration to reach inspection and deletion to finish, never a loop. */
const MAX_TRANSITIONS_PER_PASS = 3;

export interface BareMetalHostReconcilerOptions {
  hosts: {
    client: ResourceClient<KubeObject>;
    cache: Pick<Informer<KubeObject>, 'get' | 'list'> & Partial<Pick<Informer<KubeObject>, 'addHandler'>>;
    /** Host writes whose events wake nobody (the pass that made them acted on them); the controller's filter. */
    ownWrites: OwnWrites;
  };
  secrets: ClaimedSecretAccess;
  hardwareData: HardwareDataAccess;
  /** The host's HostFirmwareSettings (same name), for the changes preparing applies. */
  firmwareSettings?: { get(name: ObjectName): HostFirmwareSettings | undefined };
  /** The host's HostFirmwareComponents (same name): updates to apply, and where to record them started. */
  firmwareComponents?: {
    get(name: ObjectName): HostFirmwareComponents | undefined;
    recordUpdates(name: ObjectName, updates: Array<{ component: string; url: string }>): Promise<void>;
  };
  /** The host's DataImage (same name): attached and detached when a provisioned host powers on. */
  dataImages?: {
    get(name: ObjectName): DataImage | undefined;
    writeStatus(image: DataImage, status: DataImageStatus): Promise<void>;
  };
  /** The host's HostUpdatePolicy (same name): when servicing may apply firmware changes. */
  updatePolicies?: UpdatePolicyAccess;
  /** With --build-preprov-image: the host's PreprovisioningImage (same name). */
  preprovisioningImages?: PreprovisioningImageAccess;
  provisioner: Provisioner;
  events: EventRecorder;
  metrics: HostMetrics;
  settings: StateMachineSettings;
  /** Hosts at once in inspecting, provisioning or deprovisioning over the provisioning network (PROVISIONING_LIMIT). */
  provisioningLimit: number;
  /** Keep the hardware.metal3.io/ labels derived from status.hardware (HARDWARE_LABELS; off in BMO). */
  hardwareLabels?: boolean;
  /**
   * IRONIC_POLL_SHORT / IRONIC_POLL_LONG: with them, a host waiting on Ironic in a transient state
   * is polled on a schedule measured from recent stays in that state (poll-schedule.ts);
   * without them, at the provisioner's fixed hint.
   */
  pollBounds?: PollBounds;
  /**
   * Whether the node sweep watches every node at the short interval now (its last list
   * succeeded): a host whose wait only its node changing ends is then left to it (node-sweep.ts).
   */
  nodeListWatching?: () => boolean;
  clock?: Clock;
  random?: () => number;
}

/** What one pass carries between its steps. */
interface Pass {
  request: Request;
  host: Host;
  /** The state the pass started in: what the controller was doing, for events. */
  initialState: ProvisioningState;
  session: HostSession;
  now: Date;
  log: Logger;
  signal: AbortSignal;
}

/**
 * The BareMetalHost reconciler, in BMO's order: paused (or being moved away by clusterctl), host data and annotations,
 * finalizer, credentials, then the state machine; afterwards conditions, one status merge
 * patch if anything changed, metrics and events, and when to look again.
 */
export class BareMetalHostReconciler implements Reconciler {
  readonly #options: BareMetalHostReconcilerOptions;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #recent: RecentWrites<KubeObject>;
  readonly #slots: ProvisioningSlots;
  readonly #polls: PollSchedule | undefined;

  constructor(options: BareMetalHostReconcilerOptions) {
    this.#options = options;
    this.#recent = new RecentWrites({ cache: options.hosts.cache });
    this.#slots = new ProvisioningSlots({ limit: options.provisioningLimit });
    this.#polls = options.pollBounds ? new PollSchedule(options.pollBounds) : undefined;
    // The slot ledger follows every host as it changes, so a capacity check walks nothing.
    options.hosts.cache.addHandler?.({
      onAdd: (host) => this.#observeSlot(host),
      onUpdate: (_old, host) => this.#observeSlot(host),
      onDelete: (host) => {
        this.#slots.forget(objectKey(host));
        this.#polls?.forget(objectKey(host));
        this.#options.metrics.forget(objectName(host));
      },
    });
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
  }

  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    // Counted per host while it exists: the pass after its deletion would bring its series back.
    if (this.#options.hosts.cache.get(request)) this.#options.metrics.reconciled(request);
    try {
      return await this.#reconcile(request, context);
    } catch (error) {
      this.#options.metrics.reconcileFailed();
      throw error;
    }
  }

  async #reconcile(request: Request, { log, signal }: ReconcileContext): Promise<Result> {
    const raw = this.#recent.freshest(keyOf(request), this.#options.hosts.cache.get(request));
    if (!raw) return {};
    if (PAUSED_ANNOTATION in (raw.metadata.annotations ?? {})) {
      log.info('host is paused, no work to do');
      return {};
    }
    if (DELETE_FOR_MOVE_ANNOTATION in (raw.metadata.annotations ?? {})) {
      // BMO would deprovision it here (the move's patch took its pause away): a wiped server under a running cluster.
      log.info(`host is being moved by clusterctl (${DELETE_FOR_MOVE_ANNOTATION}); leaving its Ironic node and server to the target cluster`);
      return {};
    }
    // Released already: the watch event of our own finalizer removal can come before the delete
    // event, and a pass on it would claim the credentials Secret (and its finalizer) again.
    if (raw.metadata.deletionTimestamp && !hasFinalizer(raw, BAREMETALHOST_FINALIZER)) return {};
    const parsed = safeParseCached(bareMetalHostSchema, raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      throw new TerminalError(`BareMetalHost ${keyOf(request)} does not match its schema: ${problems}`);
    }
    // The parse is shared with the other controllers; this pass changes its own copy.
    const host: Host = structuredClone({ ...parsed.data, status: parsed.data.status ?? bareMetalHostStatusSchema.parse({}) });
    const session = new HostSession({ client: this.#options.hosts.client, recent: this.#recent, host: raw, signal });
    const pass: Pass = { request, host, initialState: stateOf(host), session, now: new Date(this.#clock.now()), log, signal };

    const step: HostDataStep = {
      host,
      storedStatus: raw.status,
      hardwareData: this.#options.hardwareData.get(request),
      session,
      hardwareDataStore: this.#options.hardwareData,
      now: pass.now,
      log,
      publish: (event) => this.#publish(pass, event),
    };
    if ((await reconcileHostData(step)) === 'requeue') return { requeueNow: true };
    if ((await consumeHardwareDetails(step)) === 'requeue') return { requeueNow: true };
    if (!isDeleting(host) && !hasFinalizer(raw, BAREMETALHOST_FINALIZER)) {
      log.info('adding finalizer');
      // BMO ends the pass here and comes back; this one goes on from the write instead, so a new
      // host's registration does not wait behind every other new host's first pass.
      await this.#options.hosts.ownWrites.write(objectKey(raw), async () => {
        await session.addFinalizer();
        return session.latest;
      });
    }
    await this.#syncHardwareLabels(pass);

    let credentials: HostCredentials | undefined;
    if (stateOf(host) !== '' && stateOf(host) !== 'unmanaged') {
      const loaded = await this.#loadCredentials(pass);
      if (loaded.ok) credentials = loaded.credentials;
      // A host being deleted goes on without them; deletion must not wait for a fixed Secret.
      else if (!isDeleting(host)) return this.#credentialsError(pass, loaded);
    }
    return this.#runStateMachine(pass, { hardwareData: step.hardwareData, credentials });
  }

  async #loadCredentials(pass: Pass): Promise<CredentialsOutcome> {
    try {
      return await loadHostCredentials(pass.host, this.#options.secrets, { signal: pass.signal });
    } catch (error) {
      // Hosts sharing one Secret race to claim it: a lost race is retried quietly, not a failure.
      if (isConflict(error)) throw error;
      this.#options.metrics.credentials('unhandled');
      throw new Error('an unhandled failure occurred with the BMC secret', { cause: error });
    }
  }

  /** BMO's `credentialsErrorResult`: record a registration error; retry only a missing Secret. */
  async #credentialsError(pass: Pass, outcome: Extract<CredentialsOutcome, { ok: false }>): Promise<Result> {
    this.#options.metrics.credentials(outcome.missingSecret ? 'missing' : 'invalid');
    recordError(pass.host.status, 'registration error', outcome.error.message);
    await this.#saveStatus(pass);
    this.#publish(pass, warning('BMCCredentialError', outcome.error.message));
    // Other problems are fixed by editing the host or its (claimed, hence watched) Secret.
    return outcome.missingSecret ? { requeueAfter: DELAYS.missingSecretMs } : {};
  }

  async #runStateMachine(pass: Pass, inputs: Pick<StateContext, 'hardwareData' | 'credentials'>): Promise<Result> {
    const { host, session } = pass;
    const context: StateContext = {
      provisioner: this.#options.provisioner,
      ...(inputs.credentials ? { credentials: inputs.credentials } : {}),
      ...(inputs.hardwareData ? { hardwareData: inputs.hardwareData } : {}),
      firmwareSettingChanges: pendingSettingChanges(this.#options.firmwareSettings?.get(pass.request)),
      firmwareUpdates: pendingFirmwareUpdates(this.#options.firmwareComponents?.get(pass.request)),
      firmwareSpec: {
        settings: Object.keys(this.#options.firmwareSettings?.get(pass.request)?.spec.settings ?? {}).length > 0,
        updates: (this.#options.firmwareComponents?.get(pass.request)?.spec.updates.length ?? 0) > 0,
      },
      settings: this.#options.settings,
      ports: {
        replaceHardwareData: (details) =>
          this.#options.hardwareData.replace({ namespace: host.metadata.namespace ?? '', name: host.metadata.name ?? '', uid: host.metadata.uid ?? '' }, details),
        readConfigDrive: () => readConfigDrive(host, this.#options.secrets),
        readPreprovisioningNetworkData: () => readPreprovisioningNetworkData(host, this.#options.secrets),
        readImagePullSecret: () => readImagePullSecret(host, this.#options.secrets),
        removeAnnotations: (keys) => session.removeAnnotations(keys),
        recordFirmwareUpdates: async (updates) => this.#options.firmwareComponents?.recordUpdates(pass.request, updates),
        readDataImage: () => this.#options.dataImages?.get(pass.request),
        writeDataImageStatus: async (image, status) => this.#options.dataImages?.writeStatus(image, status),
        acquireUpdatePolicy: async () => this.#options.updatePolicies?.acquire(pass.session.latest),
        letGoOfFormerCredentials: () => this.#letGoOfFormerSecrets(pass),
        ...(this.#options.preprovisioningImages ? { preprovisioningImage: async (wanted) => this.#options.preprovisioningImages!.acquire(pass.session.latest, wanted) } : {}),
      },
      takeProvisioningSlot: () => this.#slots.take(keyOf(pass.request)),
      now: () => pass.now,
      random: this.#random,
      log: pass.log.child({ state: stateOf(host) }),
      events: [],
      metrics: [],
    };
    try {
      return await this.#advance(pass, context);
    } finally {
      // Saved (or not entered after all): the host's stored state says from now on.
      this.#slots.observe(keyOf(pass.request), holdsProvisioningSlot(pass.session.latest));
      this.#slots.settle(keyOf(pass.request));
    }
  }

  async #advance(pass: Pass, context: StateContext): Promise<Result> {
    const { host } = pass;
    let action: Action;
    const eventStates: ProvisioningState[] = [];
    try {
      action = await this.#decide(pass, context, eventStates);
    } catch (error) {
      if (error instanceof ProvisionerNotReadyError) this.#options.metrics.provisionerNotReady();
      if (error instanceof ProvisionerAccessDeniedError) {
        // Not the host's fault, so no host error; but it will not clear by itself, so it is said on the host.
        pass.log.error('the provisioner refuses the operator', { reason: error.message });
        this.#publish(pass, warning('ProvisionerAccessDenied', error.message));
        return { requeueAfter: error.retryAfterMs ?? DELAYS.transientRetryMs };
      }
      if (error instanceof ProvisionerUnreachableError) {
        // An outage is no host error either, but a host that stopped moving says why.
        pass.log.info('provisioner unreachable; retrying without recording an error', { reason: error.message });
        this.#publish(pass, warning('ProvisionerUnreachable', error.message));
        return { requeueAfter: error.retryAfterMs ?? withJitter(DELAYS.transientRetryMs, this.#random) };
      }
      if (error instanceof TransientProvisionerError || error instanceof NeedsRegistrationError) {
        // An Ironic outage must not turn into a recorded, backed-off host error.
        pass.log.info('provisioner unavailable; retrying without recording an error', { reason: error.message });
        const retryAfterMs = error instanceof TransientProvisionerError ? error.retryAfterMs : undefined;
        return { requeueAfter: retryAfterMs ?? withJitter(DELAYS.transientRetryMs, this.#random) };
      }
      throw error;
    }
    if (action.kind === 'deleted') await this.#release(pass);
    else {
      await this.#fillArchitecture(pass);
      await this.#saveStatus(pass);
      // Inspection may just have filled status.hardware: label the host in the same pass.
      await this.#syncHardwareLabels(pass);
    }
    for (const metric of context.metrics) {
      this.#options.metrics.apply(metric, pass.request);
      if (metric.metric === 'stateChange') this.#polls?.entered(keyOf(pass.request), { from: metric.from, to: metric.to, atMs: pass.now.getTime() });
    }
    context.events.forEach((event, index) => this.#publish(pass, event, eventStates[index]));
    const scheduled = this.#scheduled(pass, action, requeueFor(action, { errorCount: host.status.errorCount, random: this.#random }));
    return wakeByDeadline(scheduled, nextDeletionDeadlineInMs(host, context));
  }

  /**
   * The state machine, going on into the next state in the same pass when a state completes
   * (up to MAX_TRANSITIONS_PER_PASS): the next state's handler starts its work at once, and the
   * host is saved once, instead of a status write and a trip through the queue per state.
   * A failure in a state entered this way is left to the next pass: the transitions made so far
   * are saved as they were before it ran. `eventStates` gets the state each event's step began in.
   */
  async #decide(pass: Pass, context: StateContext, eventStates: ProvisioningState[]): Promise<Action> {
    let from = stateOf(pass.host);
    let action = await reconcileState(pass.host, context);
    for (let transitions = 1; action.kind === 'complete' && stateOf(pass.host) !== from && transitions < MAX_TRANSITIONS_PER_PASS; transitions++) {
      if (!(await this.#credentialsLoaded(pass, context))) break;
      eventStates.push(...context.events.slice(eventStates.length).map(() => from));
      from = stateOf(pass.host);
      const before = { status: structuredClone(pass.host.status), events: context.events.length, metrics: context.metrics.length };
      try {
        action = await reconcileState(pass.host, { ...context, log: pass.log.child({ state: from }) });
      } catch (error) {
        pass.log.info('the state entered in this pass will be retried on the next', { state: from, reason: error instanceof Error ? error.message : String(error) });
        pass.host.status = before.status;
        context.events.length = before.events;
        context.metrics.length = before.metrics;
        break;
      }
    }
    eventStates.push(...context.events.slice(eventStates.length).map(() => from));
    return action;
  }

  /**
   * A pass that began before registration ('' or unmanaged) has no credentials; they are loaded
   * as the next pass would, and a problem with them is left to that pass. Deletion goes on without.
   */
  async #credentialsLoaded(pass: Pass, context: StateContext): Promise<boolean> {
    if (context.credentials || isDeleting(pass.host)) return true;
    const loaded = await this.#loadCredentials(pass).catch((error: unknown) => {
      pass.log.info('credentials not loaded; the next state waits for the next pass', { reason: error instanceof Error ? error.message : String(error) });
      return undefined;
    });
    if (!loaded?.ok) return false;
    context.credentials = loaded.credentials;
    return true;
  }

  /**
   * A wait the node sweep watches gets only a backstop poll. Any other poll at Ironic's cadence
   * (the provisioner's hint, up to IRONIC_POLL_LONG and its jitter) follows the measured
   * schedule instead; longer waits (a PreprovisioningImage, a backoff) stand.
   */
  #scheduled(pass: Pass, action: Action, result: Result): Result {
    if (action.kind !== 'continue' || typeof result.requeueAfter !== 'number') return result;
    if (this.#leftToNodeSweep(pass, action)) return { requeueAfter: withJitter(DELAYS.watchedWaitBackstopMs, this.#random) };
    if (!this.#polls) return result;
    if (result.requeueAfter > withJitter(this.#options.pollBounds!.longMs, () => 1)) return result;
    const afterMs = this.#polls.pollAfterMs(keyOf(pass.request), { state: stateOf(pass.host), nowMs: pass.now.getTime() });
    return afterMs === undefined ? result : { requeueAfter: withJitter(afterMs, this.#random) };
  }

  /**
   * The sweep wakes the host when its node changes, and only that ends its wait. A host being
   * deleted keeps polling: its deletion deadline is checked on its own passes.
   */
  #leftToNodeSweep(pass: Pass, action: Extract<Action, { kind: 'continue' }>): boolean {
    if (!action.awaitsNodeChange || isDeleting(pass.host) || !POLLED_STATES.has(stateOf(pass.host))) return false;
    return this.#options.nodeListWatching?.() ?? false;
  }

  /** A cache event: as fresh as we know it (our own writes may be ahead of the cache). */
  #observeSlot(cached: KubeObject): void {
    const key = objectKey(cached);
    this.#slots.observe(key, holdsProvisioningSlot(this.#recent.freshest(key, cached) ?? cached));
  }

  /** Conditions, then one merge patch of what changed; lastUpdated only moves with a real change. */
  async #saveStatus(pass: Pass): Promise<void> {
    const { host } = pass;
    const before = host.status.conditions;
    const bmcProblem = host.status.operationalStatus === 'detached' ? undefined : this.#options.provisioner.bmcProblem({ host: identityOf(host) });
    host.status.conditions = computeConditions(host, pass.now, { health: this.#options.provisioner.health({ host: identityOf(host) }), bmcProblem });
    const bmcChange = bmcAnsweringChange(before, bmcProblem);
    if (bmcChange) {
      if (bmcChange.type === 'Warning') pass.log.error(bmcChange.message);
      else pass.log.info(bmcChange.message);
      this.#publish(pass, bmcChange);
    }
    const stored = (pass.session.latest.status ?? {}) as Record<string, unknown>;
    const patch = createMergePatch(stored, { ...host.status, lastUpdated: stored.lastUpdated });
    if (patch === undefined) return;
    pass.log.info('saving host status', { operationalStatus: host.status.operationalStatus, provisioningState: stateOf(host), changed: changedFields(patch) });
    await pass.session.patchStatus({ ...(patch as Record<string, unknown>), lastUpdated: formatTime(pass.now) });
  }

  /**
   * Inspection just filled status.hardware: spec.architecture is set from it before this pass's
   * status write, whose conditions then speak of the new generation. BMO sets it from HardwareData
   * on a later pass, and the generation it bumps costs one more status write there. A failed patch
   * is left to that path (reconcileHostData), so the pass's status is still saved.
   */
  async #fillArchitecture(pass: Pass): Promise<void> {
    const arch = pass.host.status.hardware?.cpu?.arch;
    if (!arch || pass.host.spec.architecture || isDeleting(pass.host)) return;
    try {
      // This pass goes on with the new generation; the write's event would only bring the host
      // back to find nothing to do, behind every other host's work.
      await this.#options.hosts.ownWrites.write(objectKey(pass.host), async () => {
        await pass.session.patchSpec({ architecture: arch });
        return pass.session.latest;
      });
    } catch (error) {
      pass.log.info('architecture not set from inspection; left to the next pass', { reason: error instanceof Error ? error.message : String(error) });
      return;
    }
    pass.log.info('updating architecture from inspection', { architecture: arch });
    pass.host.spec.architecture = arch;
    pass.host.metadata.generation = pass.session.latest.metadata.generation;
  }

  /**
   * With HARDWARE_LABELS, one metadata merge patch when our hardware labels differ from
   * status.hardware. Kubernetes-only work, so it goes on for detached hosts (as status
   * writes do); paused hosts never get here, and a host being deleted is left as it is.
   */
  async #syncHardwareLabels(pass: Pass): Promise<void> {
    if (!this.#options.hardwareLabels || isDeleting(pass.host)) return;
    const wanted = wantedHardwareLabels(pass.host);
    if (!wanted) return;
    const patch = hardwareLabelsPatch(pass.session.latest.metadata.labels, wanted);
    if (!patch) return;
    pass.log.info('updating hardware labels', { labels: patch });
    await pass.session.patchLabels(patch);
  }

  /** The provisioner let go of the host: release its Secret and HardwareData, then the host itself. */
  async #release(pass: Pass): Promise<void> {
    const { host } = pass;
    const namespace = host.metadata.namespace ?? '';
    const credentialsName = host.spec.bmc?.credentialsName;
    if (credentialsName) {
      // BMO drops the finalizer whichever host goes, leaving a Secret other hosts still log in
      // with open to deletion; here the last host to use it lets it go.
      const users = this.#otherHostsUsing(host, credentialsName);
      if (users.length === 0) await this.#options.secrets.release({ namespace, name: credentialsName });
      else pass.log.info('BMC Secret still used by other hosts; keeping its finalizer', { secret: credentialsName, hosts: users });
    }
    // Ones it logged in with before its credentialsName changed, if a pass then did not let go of them.
    await this.#letGoOfFormerSecrets(pass);
    await this.#options.hardwareData.release({ namespace, name: host.metadata.name ?? '' });
    await this.#options.preprovisioningImages?.release({ namespace, name: host.metadata.name ?? '' });
    await pass.session.removeFinalizer();
    pass.log.info('cleanup is complete, removed finalizer');
  }

  /** The BMC Secrets the host claimed and no longer names: see HostPorts.letGoOfFormerCredentials. */
  async #letGoOfFormerSecrets(pass: Pass): Promise<void> {
    const { host } = pass;
    const namespace = host.metadata.namespace ?? '';
    const inUse = new Set([host.spec.bmc?.credentialsName, host.spec.preprovisioningNetworkDataName]);
    for (const name of this.#options.secrets.heldBy(namespace, host.metadata.uid ?? '')) {
      if (inUse.has(name)) continue;
      const users = this.#otherHostsUsing(host, name);
      await this.#options.secrets.letGo({ namespace, name }, { ownerUid: host.metadata.uid ?? '', keepFinalizer: users.length > 0, signal: pass.signal });
      pass.log.info('let go of a BMC Secret the host no longer uses', { secret: name, ...(users.length ? { stillUsedBy: users } : {}) });
    }
  }

  /** Names of the other hosts of the namespace, not being deleted, whose BMC logs in with this Secret. */
  #otherHostsUsing(host: Host, secretName: string): string[] {
    return this.#options.hosts.cache.list(host.metadata.namespace ?? '')
      .filter((other) => other.metadata.uid !== host.metadata.uid && !other.metadata.deletionTimestamp
        && (other.spec as { bmc?: { credentialsName?: string } } | undefined)?.bmc?.credentialsName === secretName)
      .map((other) => other.metadata.name ?? '');
  }

  /** `state`: the state the step that asked for the event began in (the pass's first by default). */
  #publish(pass: Pass, event: HostEvent, state: ProvisioningState = pass.initialState): void {
    const consumer = pass.host.spec.consumerRef;
    this.#options.events.event(pass.session.latest, {
      type: event.type,
      reason: event.reason,
      action: eventActionFor(state),
      note: event.message,
      ...(consumer?.name
        ? { related: { apiVersion: consumer.apiVersion, kind: consumer.kind, metadata: { name: consumer.name, namespace: consumer.namespace ?? pass.host.metadata.namespace } } }
        : {}),
    });
  }
}
