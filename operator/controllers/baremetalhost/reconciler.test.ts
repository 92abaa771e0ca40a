import { describe, expect, it } from '@jest/globals';
import { DELETE_FOR_MOVE_ANNOTATION, HARDWARE_DETAILS_ANNOTATION, PAUSED_ANNOTATION, STATUS_ANNOTATION } from '../../api/annotations.ts';
import type { BareMetalHostInput } from '../../api/baremetalhost.ts';
import { bareMetalHostStatusSchema } from '../../api/baremetalhost-status.ts';
import { BAREMETALHOST_FINALIZER } from '../../api/finalizers.ts';
import { TransientProvisionerError, busy, failed } from '../../provisioner/result.ts';
import type { PollBounds } from './poll-schedule.ts';
import { ProvisionerNotReadyError, ProvisionerUnreachableError } from './provisioner-not-ready.ts';
import { ScriptedProvisioner, withNode } from './testing/scripted-provisioner.ts';
import { BMC_ADDRESS, registeredStatus } from './testing/hosts.ts';
import { ReconcilerHarness, bmcSecret } from './testing/reconciler-harness.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { allows } from '../../runtime/predicates.ts';

function host(overrides: { metadata?: Record<string, unknown>; spec?: Record<string, unknown>; status?: unknown } = {}): BareMetalHostInput {
  return {
    apiVersion: 'metal3.io/v1alpha1',
    kind: 'BareMetalHost',
    metadata: { name: 'host-0', namespace: 'test', uid: 'uid-0', generation: 1, resourceVersion: '5', finalizers: [BAREMETALHOST_FINALIZER], ...overrides.metadata },
    spec: { online: true, bmc: { address: BMC_ADDRESS, credentialsName: 'bmc-secret' }, ...overrides.spec },
    // A stored status has every field BMO writes; parsing fills the zero values in.
    ...(overrides.status ? { status: bareMetalHostStatusSchema.parse(overrides.status) } : {}),
  } as BareMetalHostInput;
}

/** RFC 7386 merge of a status patch into the stored status. */
function mergeStatus(stored: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const merged: Record<string, unknown> = { ...(typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? stored as Record<string, unknown> : {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = mergeStatus(merged[key], value);
  }
  return merged;
}

const stateOf = (object: object | undefined): string | undefined => ((object as { status?: unknown } | undefined)?.status as { provisioning?: { state?: string } } | undefined)?.provisioning?.state;

function harness(options: { host: BareMetalHostInput; provisioner?: ScriptedProvisioner; secret?: boolean; pollBounds?: PollBounds; nodeListWatching?: () => boolean }) {
  const provisioner = options.provisioner ?? new ScriptedProvisioner();
  const h = new ReconcilerHarness({
    provisioner,
    host: options.host,
    ...(options.pollBounds ? { pollBounds: options.pollBounds } : {}),
    ...(options.nodeListWatching ? { nodeListWatching: options.nodeListWatching } : {}),
  });
  if (options.secret !== false) h.secrets.set('test/bmc-secret', bmcSecret());
  return { h, provisioner };
}

describe('the BareMetalHost reconciler', () => {
  it('polls Ironic in a transient state on the schedule measured from the stays it saw, the provisioner\'s hint until then', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const { h } = harness({ host: host({ status: registeredStatus('registering') }), provisioner, pollBounds: { shortMs: 1_000, longMs: 20_000 } });
    let stored = 10_000;
    /** One pass; the stored host becomes what the pass wrote (merge of the status patch). */
    const pass = async () => {
      const result = await h.reconcile();
      const written = h.statusPatches().at(-1);
      // Newer than anything the reconciler wrote, as the cache would be after the watch event.
      const metadata = { ...h.host!.metadata, resourceVersion: String(++stored) };
      h.host = { ...h.host!, metadata, ...(written ? { status: mergeStatus(h.host!.status, written) } : {}) };
      h.patches.length = 0;
      return result;
    };
    /** Registration completes and inspection starts in the same pass. */
    const enterInspecting = async (expected: object) => {
      h.host = { ...h.host!, metadata: { ...h.host!.metadata, resourceVersion: String(++stored) }, status: bareMetalHostStatusSchema.parse(registeredStatus('registering')) };
      expect(await pass()).toEqual(expected);
      expect(stateOf(h.host)).toBe('inspecting');
    };
    provisioner.script('inspect', busy(7_000, 'inspection in progress'), busy(7_000, 'inspection in progress'));
    // No stay measured yet: the provisioner's hint.
    await enterInspecting({ requeueAfter: 7_000 });
    h.nowMs += 1_000;
    expect(await pass()).toEqual({ requeueAfter: 7_000 });
    h.nowMs += 39_000;
    await pass();
    expect(stateOf(h.host)).not.toBe('inspecting');

    // Inspecting took 40 s: 25 s into the next stay, the 15 s left; late, a quarter of 40 s.
    provisioner.script('inspect', busy(7_000, 'inspection in progress'), busy(7_000, 'inspection in progress'), busy(7_000, 'inspection in progress'));
    await enterInspecting({ requeueAfter: 20_000 });
    h.nowMs += 25_000;
    expect(await pass()).toEqual({ requeueAfter: 15_000 });
    h.nowMs += 50_000;
    expect(await pass()).toEqual({ requeueAfter: 10_000 });
  });

  it('leaves a wait only a node change ends to the node sweep while it watches, looking itself once a minute', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    let watching = true;
    const { h } = harness({ host: host({ status: registeredStatus('inspecting') }), provisioner, pollBounds: { shortMs: 1_000, longMs: 20_000 }, nodeListWatching: () => watching });
    const operation = busy(7_000, 'inspection in progress', { awaitsNodeChange: true });
    provisioner.script('inspect', operation, busy(7_000, 'inspection in progress'), operation);

    expect(await h.reconcile()).toEqual({ requeueAfter: 60_000 });
    // A wait the list cannot see end (a lock, a forced reboot's abort) is polled as before.
    expect(await h.reconcile()).toEqual({ requeueAfter: 7_000 });
    // The list failing: the host polls itself again.
    watching = false;
    expect(await h.reconcile()).toEqual({ requeueAfter: 7_000 });
  });

  it('keeps polling a host being deleted, whose deadline only its own passes check, whatever the node sweep watches', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const deleting = host({ metadata: { deletionTimestamp: '2026-05-01T11:59:00Z' }, status: registeredStatus('deprovisioning') });
    const { h } = harness({ host: deleting, provisioner, pollBounds: { shortMs: 1_000, longMs: 20_000 }, nodeListWatching: () => true });
    provisioner.script('deprovision', busy(7_000, 'deprovisioning in progress (cleaning)', { awaitsNodeChange: true }));

    expect(await h.reconcile()).toEqual({ requeueAfter: 7_000 });
    expect(provisioner.callsOf('deprovision')).toHaveLength(1);
  });

  it('wakes a host being deleted at its deletion deadline rather than after a longer backoff', async () => {
    // Deleted 59 minutes ago with the hour's deadline: a failed registration's 2-4 minute backoff would outlast it.
    const provisioner = new ScriptedProvisioner().script('register', failed('Failed to get power state'));
    const deleting = host({
      metadata: { deletionTimestamp: '2026-05-01T11:01:00Z' },
      status: registeredStatus('powering off before delete', { errorType: 'registration error', errorCount: 1, operationalStatus: 'error' }),
    });
    const { h } = harness({ host: deleting, provisioner });

    expect(await h.reconcile()).toEqual({ requeueAfter: 61_000 });
    expect(provisioner.callsOf('register')).toHaveLength(1);
  });

  it('does nothing at all for a paused host', async () => {
    const { h, provisioner } = harness({ host: host({ metadata: { annotations: { [PAUSED_ANNOTATION]: 'metal3.io/capm3' } } }) });
    expect(await h.reconcile()).toEqual({});
    expect(h.patches).toEqual([]);
    expect(provisioner.calls).toEqual([]);
  });

  it('leaves a host clusterctl is moving away alone even as it is deleted: no deprovisioning, no Ironic call, no write', async () => {
    // clusterctl's patch replaced every annotation with its own, the pause included, then deleted the host.
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const moving = host({
      metadata: { deletionTimestamp: '2026-05-01T11:59:00Z', annotations: { [DELETE_FOR_MOVE_ANNOTATION]: '' } },
      status: registeredStatus('provisioned'),
    });
    const { h } = harness({ host: moving, provisioner });
    expect(await h.reconcile()).toEqual({});
    expect(h.patches).toEqual([]);
    expect(provisioner.calls).toEqual([]);
  });

  it('adds its finalizer first, then goes on from that write in the same pass, whose event wakes nobody', async () => {
    const { h, provisioner } = harness({ host: host({ metadata: { finalizers: [] } }) });
    await h.reconcile();
    expect(h.patches[0]?.options.type).toBe('json');
    expect(h.patches[0]?.body).toContainEqual({ op: 'add', path: '/metadata/finalizers', value: [BAREMETALHOST_FINALIZER] });
    // The next write is based on the version the finalizer's made.
    expect(h.patches[1]?.body).toMatchObject({ metadata: { resourceVersion: '101' } });
    expect(provisioner.calls.map((call) => call.verb)).toContain('register');
    const written = (resourceVersion: string): KubeObject => ({ metadata: { name: 'host-0', namespace: 'test', resourceVersion } });
    expect(allows(h.ownWrites.filter, { type: 'update', oldObject: written('5'), object: written('101') })).toBe(false);
  });

  it('lets the event of its architecture write wake nobody, the pass having gone on from it; later writes pass', async () => {
    const { h } = harness({ host: host() });
    await h.reconcile();
    const written = (resourceVersion: string): KubeObject => ({ metadata: { name: 'host-0', namespace: 'test', resourceVersion } });

    expect(h.patches[0]?.body).toMatchObject({ spec: { architecture: 'x86_64' } });
    expect(allows(h.ownWrites.filter, { type: 'update', oldObject: written('5'), object: written('101') })).toBe(false);
    expect(allows(h.ownWrites.filter, { type: 'update', oldObject: written('101'), object: written('102') })).toBe(true);
  });

  it('takes a new host through the states that finish at once in one pass, with one status patch after the architecture inspection found', async () => {
    // The scripted provisioner registers and inspects at once: only the cap of three transitions stops the pass.
    const { h, provisioner } = harness({ host: host() });
    expect(await h.reconcile()).toEqual({ requeueNow: true });
    expect(h.patches).toHaveLength(2);
    // spec.architecture from the inspection, first, so the status's conditions speak of the generation it made.
    expect(h.patches[0]?.body).toEqual({ metadata: { resourceVersion: '5' }, spec: { architecture: 'x86_64' } });
    expect(h.patches[1]?.body).toMatchObject({ metadata: { resourceVersion: '101' } });
    const [status] = h.statusPatches();
    expect(status).toMatchObject({
      operationalStatus: 'OK',
      errorMessage: '',
      errorCount: 0,
      poweredOn: false,
      lastUpdated: '2026-05-01T12:00:00Z',
      provisioning: { state: 'preparing', ID: 'in-memory-1', bootMode: 'UEFI' },
      triedCredentials: { credentials: { name: 'bmc-secret', namespace: 'test' } },
      goodCredentials: { credentials: { name: 'bmc-secret', namespace: 'test' } },
    });
    const conditions = (status as { conditions: Array<{ observedGeneration?: number }> }).conditions;
    expect(conditions.length).toBeGreaterThan(0);
    expect(conditions.every((condition) => condition.observedGeneration === 2)).toBe(true);
    // The credentials the pass began without were loaded (and the Secret claimed) before registering.
    expect(h.claims).toEqual([{ name: 'bmc-secret', finalizer: true, owner: 'host-0' }]);
    expect(provisioner.calls.map((call) => call.verb)).toEqual(['register', 'register', 'inspect']);
    for (const [from, to] of [['', 'registering'], ['registering', 'inspecting'], ['inspecting', 'preparing']]) {
      expect(await h.metric('metal3_provisioning_state_change_total')).toContain(`prev_state="${from}",new_state="${to}"} 1`);
    }
    expect(await h.metric('metal3_reconcile_total')).toContain('namespace="test",host="host-0"} 1');
    // Each event says what the controller was doing in the step that asked for it.
    expect(h.events.map((event) => [event.reason, event.action])).toEqual([
      ['Registered', 'Register'],
      ['ProfileSet', 'Register'],
      ['BMCAccessValidated', 'Register'],
      ['InspectionStarted', 'Register'],
      ['InspectionComplete', 'Inspect'],
    ]);
  });

  it('still saves the status when the architecture patch fails, leaving the architecture to a later pass', async () => {
    const { h } = harness({ host: host() });
    h.specPatchError = Object.assign(new Error('Operation cannot be fulfilled: the object has been modified'), { code: 409 });
    expect(await h.reconcile()).toEqual({ requeueNow: true });
    expect(h.patches).toHaveLength(1);
    expect(h.statusPatches()[0]).toMatchObject({ provisioning: { state: 'preparing' } });
    const conditions = (h.statusPatches()[0] as { conditions: Array<{ observedGeneration?: number }> }).conditions;
    expect(conditions.every((condition) => condition.observedGeneration === 1)).toBe(true);
  });

  it('leaves a failure in a state it went on into to the next pass, saving the transition before it', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    provisioner.script('inspect', new TransientProvisionerError('Ironic is restarting', { retryAfterMs: 5_000 }));
    const { h } = harness({ host: host({ status: registeredStatus('registering') }), provisioner });
    expect(await h.reconcile()).toEqual({ requeueNow: true });
    expect(h.statusPatches()).toHaveLength(1);
    expect(h.statusPatches()[0]).toMatchObject({ provisioning: { state: 'inspecting' } });
    expect(h.statusPatches()[0]).not.toHaveProperty('errorMessage');
    expect(provisioner.calls.map((call) => call.verb)).toContain('inspect');
    expect(h.events.map((event) => event.reason)).toEqual(['InspectionStarted']);
  });

  it('ends a deprovisioning with the power the cleaning left, in the same status write', async () => {
    // Deprovisioning clears the provisioning settings, which registration fills in again on the
    // way into available; that and the node now off are saved with the state, not a pass later.
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' }).poweredOn = true;
    const { h } = harness({ host: host({ spec: { online: false }, status: { ...registeredStatus('deprovisioning'), poweredOn: true } }), provisioner });
    await h.reconcile();
    expect(h.statusPatches()).toHaveLength(1);
    expect(h.statusPatches()[0]).toMatchObject({ provisioning: { state: 'available' }, poweredOn: false });
    expect(provisioner.calls.map((call) => call.verb)).toEqual(['register', 'deprovision', 'register', 'hardwareState']);
  });

  it('claims the credentials Secret, with a finalizer, while registering', async () => {
    const { h } = harness({ host: host({ status: registeredStatus('registering') }) });
    await h.reconcile();
    expect(h.claims).toEqual([{ name: 'bmc-secret', finalizer: true, owner: 'host-0' }]);
  });

  it('reports a missing Secret as a registration error and retries in 10 s', async () => {
    const { h } = harness({ host: host({ status: registeredStatus('registering', { errorCount: 1 }) }), secret: false });
    expect(await h.reconcile()).toEqual({ requeueAfter: 10_000 });
    expect(h.statusPatches()[0]).toMatchObject({
      operationalStatus: 'error',
      errorType: 'registration error',
      errorMessage: "BMC CredentialsName secret doesn't exist The BMC secret test/bmc-secret does not exist",
      errorCount: 2,
    });
    expect(h.events[0]).toMatchObject({ type: 'Warning', reason: 'BMCCredentialError' });
    expect(await h.metric('metal3_credentials_missing_total')).toContain('metal3_credentials_missing_total 1');
  });

  it('waits for an edit on invalid credentials, never showing their values', async () => {
    const { h } = harness({ host: host({ status: registeredStatus('registering') }) });
    h.secrets.set('test/bmc-secret', bmcSecret({ username: 'admin' }));
    expect(await h.reconcile()).toEqual({});
    expect(h.statusPatches()[0]).toMatchObject({ errorMessage: "Validation error with BMC credentials: Missing BMC connection details 'password' in credentials" });
    expect(JSON.stringify(h.patches)).not.toContain('admin');
    expect(await h.metric('metal3_credentials_invalid_total')).toContain('metal3_credentials_invalid_total 1');
  });

  it('reports an unknown BMC type without requeueing', async () => {
    const { h } = harness({ host: host({ spec: { bmc: { address: 'foo://127.0.0.1', credentialsName: 'bmc-secret' } }, status: registeredStatus('registering') }) });
    expect(await h.reconcile()).toEqual({});
    expect(h.statusPatches()[0]).toMatchObject({ errorMessage: "Unknown BMC type 'foo' for address foo://127.0.0.1" });
  });

  it('retries transient provisioner errors soon, recording nothing', async () => {
    const provisioner = new ScriptedProvisioner().script('register', new TransientProvisionerError('connect ECONNREFUSED 127.0.0.1:6385'));
    const { h } = harness({ host: host({ status: registeredStatus('available') }), provisioner });
    expect(await h.reconcile()).toEqual({ requeueAfter: 10_000 });
    expect(h.patches).toEqual([]);
    expect(h.events).toEqual([]);
  });

  it('says on the host that Ironic does not answer, still recording no error', async () => {
    const message = 'Ironic at http://127.0.0.1:6385 is unreachable (ECONNREFUSED): the host keeps its state and retries without recording an error';
    const provisioner = new ScriptedProvisioner().script('register', new ProvisionerUnreachableError(message));
    const { h } = harness({ host: host({ status: registeredStatus('available') }), provisioner });
    expect(await h.reconcile()).toEqual({ requeueAfter: 10_000 });
    expect(h.patches).toEqual([]);
    expect(h.events).toEqual([expect.objectContaining({ type: 'Warning', reason: 'ProvisionerUnreachable', note: message })]);
  });

  it('passes a lost race to claim a shared Secret on as the conflict it is, not as a credentials failure', async () => {
    const { h } = harness({ host: host({ status: registeredStatus('available') }) });
    const conflict = Object.assign(new Error('Operation cannot be fulfilled on secrets "bmc-secret"'), { code: 409, body: { reason: 'Conflict' } });
    h.claimError = conflict;
    await expect(h.reconcile()).rejects.toBe(conflict);
    expect(await h.metric('metal3_credentials_unhandled_error_total')).toContain('metal3_credentials_unhandled_error_total 0');
    expect(h.events).toEqual([]);
  });

  it('waits 30 s for a provisioner that is not ready, counting it', async () => {
    const provisioner = new ScriptedProvisioner().script('register', new ProvisionerNotReadyError('ironic is starting'));
    const { h } = harness({ host: host({ status: registeredStatus('available') }), provisioner });
    expect(await h.reconcile()).toEqual({ requeueAfter: 30_000 });
    expect(await h.metric('metal3_provisioner_not_ready_total')).toContain('metal3_provisioner_not_ready_total 1');
  });

  it('writes nothing when nothing changed', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: true });
    const { h } = harness({ host: host({ status: registeredStatus('available', { poweredOn: true }) }), provisioner });
    await h.reconcile();
    expect(h.statusPatches()).toHaveLength(1);
    // What the API server would now hold: our conditions, at the version our write returned.
    const conditions = (h.statusPatches()[0] as { conditions: unknown }).conditions;
    h.host = { ...h.host!, metadata: { ...h.host!.metadata, resourceVersion: '101' }, status: { ...(h.host!.status as object), conditions } };
    h.patches.length = 0;
    expect(await h.reconcile()).toEqual({});
    expect(JSON.stringify(h.patches.map((p) => p.body))).toBe('[]');
  });

  it('saves the health the provisioner reports as the Healthy condition', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: true, health: 'Warning' });
    const { h } = harness({ host: host({ status: registeredStatus('available', { poweredOn: true }) }), provisioner });
    await h.reconcile();
    const conditions = (h.statusPatches()[0] as { conditions: { type: string; status: string; reason: string }[] }).conditions;
    expect(conditions.find((c) => c.type === 'Healthy')).toMatchObject({ status: 'False', reason: 'Warning' });
  });

  it('records a failure with backoff and a Warning event', async () => {
    const image = { url: 'http://127.0.0.1/image.raw' };
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const { h } = harness({ host: host({ spec: { image }, status: registeredStatus('provisioning') }), provisioner });
    expect(await h.reconcile()).toEqual({ requeueAfter: 120_000 });
    expect(h.statusPatches()[0]).toMatchObject({ operationalStatus: 'error', errorType: 'provisioning error', errorCount: 1 });
    expect(h.events.map((e) => [e.type, e.reason, e.action])).toEqual([['Warning', 'ProvisioningError', 'Provision']]);
    expect(await h.metric('metal3_host_error_total')).toContain('error_type="ProvisioningError"} 1');
  });

  it('restores an empty status from the status annotation, preferring HardwareData, then drops the annotation', async () => {
    const saved = JSON.stringify({ operationalStatus: 'OK', provisioning: { state: 'provisioned', ID: 'node-1' }, hardware: { ramMebibytes: 1 } });
    const { h } = harness({ host: host({ metadata: { annotations: { [STATUS_ANNOTATION]: saved } } }) });
    h.hardwareData = { metadata: { name: 'host-0', namespace: 'test' }, spec: { hardware: { ramMebibytes: 2 } } };
    expect(await h.reconcile()).toEqual({ requeueNow: true });
    expect(h.statusPatches()[0]).toMatchObject({ provisioning: { state: 'provisioned', ID: 'node-1' }, hardware: { ramMebibytes: 2 }, lastUpdated: '2026-05-01T12:00:00Z' });
    h.host = host({ metadata: { resourceVersion: '101', annotations: { [STATUS_ANNOTATION]: saved } }, status: registeredStatus('provisioned') });
    h.patches.length = 0;
    expect(await h.reconcile()).toEqual({ requeueNow: true });
    expect(h.patches[0]?.body).toMatchObject({ metadata: { annotations: { [STATUS_ANNOTATION]: null } } });
  });

  it('takes hardware details from the annotation when inspection is disabled', async () => {
    const { h } = harness({
      host: host({ spec: { inspectionMode: 'disabled' }, metadata: { annotations: { [HARDWARE_DETAILS_ANNOTATION]: '{"ramMebibytes":4096}' } }, status: registeredStatus('registering') }),
    });
    expect(await h.reconcile()).toEqual({ requeueNow: true });
    expect(h.statusPatches()[0]).toMatchObject({ hardware: { ramMebibytes: 4096 } });
    expect(h.patches[1]?.body).toMatchObject({ metadata: { annotations: { [HARDWARE_DETAILS_ANNOTATION]: null } } });
    expect(h.reasons()).toEqual(['UpdateHardwareDetails']);
  });

  it('rejects unreadable hardware details without retrying', async () => {
    const { h } = harness({ host: host({ spec: { inspectionMode: 'disabled' }, metadata: { annotations: { [HARDWARE_DETAILS_ANNOTATION]: '{"ram":1}' } }, status: registeredStatus('registering') }) });
    await expect(h.reconcile()).rejects.toMatchObject({ name: 'TerminalError' });
  });

  it('fills spec.architecture from HardwareData', async () => {
    const { h } = harness({ host: host({ status: registeredStatus('available') }) });
    h.hardwareData = { metadata: { name: 'host-0', namespace: 'test' }, spec: { hardware: { cpu: { arch: 'aarch64' } } } };
    expect(await h.reconcile()).toEqual({ requeueNow: true });
    expect(h.patches[0]?.body).toMatchObject({ spec: { architecture: 'aarch64' } });
  });

  it('on deletion removes the node, releases the Secret and HardwareData, then its finalizer', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const { h } = harness({ host: host({ metadata: { deletionTimestamp: '2026-05-01T11:59:00Z' }, status: registeredStatus('deleting') }), provisioner });
    expect(await h.reconcile()).toEqual({});
    expect(provisioner.nodes.size).toBe(0);
    expect(h.releasedSecrets).toEqual(['test/bmc-secret']);
    expect(h.releasedHardwareData).toEqual(['test/host-0']);
    expect(h.patches.at(-1)?.body).toEqual([
      { op: 'test', path: '/metadata/finalizers/0', value: BAREMETALHOST_FINALIZER },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ]);
    expect(h.claims).toEqual([{ name: 'bmc-secret', finalizer: false, owner: 'host-0' }]);
  });

  it('keeps the finalizer on a BMC Secret another live host still uses, and lets it go with the last one', async () => {
    const deletingHost = () => host({ metadata: { deletionTimestamp: '2026-05-01T11:59:00Z' }, status: registeredStatus('deleting') });
    const other = (name: string, metadata: Record<string, unknown> = {}) => host({ metadata: { name, uid: `${name}-uid`, ...metadata } });
    const shared = new ScriptedProvisioner();
    withNode(shared, { namespace: 'test', name: 'host-0' });
    const kept = harness({ host: deletingHost(), provisioner: shared }).h;
    kept.otherHosts = [other('host-1'), other('host-2', { namespace: 'elsewhere' })];
    expect(await kept.reconcile()).toEqual({});
    expect(kept.releasedSecrets).toEqual([]);
    expect(kept.releasedHardwareData).toEqual(['test/host-0']);
    const last = new ScriptedProvisioner();
    withNode(last, { namespace: 'test', name: 'host-0' });
    const released = harness({ host: deletingHost(), provisioner: last }).h;
    // Hosts being deleted too, or logging in with another Secret, do not keep it.
    released.otherHosts = [other('host-1', { deletionTimestamp: '2026-05-01T11:58:00Z' }),
      host({ metadata: { name: 'host-3', uid: 'host-3-uid' }, spec: { bmc: { address: BMC_ADDRESS, credentialsName: 'other-secret' } } })];
    expect(await released.reconcile()).toEqual({});
    expect(released.releasedSecrets).toEqual(['test/bmc-secret']);
  });

  it('lets go of the BMC Secret a host logged in with before its credentialsName changed, keeping the finalizer while another host uses it', async () => {
    const heldByHost = (name: string) => ({ metadata: { name, namespace: 'test', resourceVersion: '3', finalizers: ['baremetalhost.metal3.io/secret'],
      ownerReferences: [{ apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', name: 'host-0', uid: 'uid-0' }] } });
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const switched = harness({ provisioner, host: host({ status: registeredStatus('provisioned', {
      goodCredentials: { credentials: { name: 'old-secret', namespace: 'test' }, credentialsVersion: '3' },
      triedCredentials: { credentials: { name: 'old-secret', namespace: 'test' }, credentialsVersion: '3' } }) }) }).h;
    switched.secrets.set('test/bmc-secret', { ...bmcSecret(), metadata: { ...heldByHost('bmc-secret').metadata, resourceVersion: '10' } });
    switched.secrets.set('test/old-secret', heldByHost('old-secret'));
    switched.otherHosts = [host({ metadata: { name: 'host-1', uid: 'uid-1' }, spec: { bmc: { address: BMC_ADDRESS, credentialsName: 'old-secret' } } })];
    await switched.reconcile();
    expect(switched.secretsLetGo).toEqual([{ secret: 'test/old-secret', ownerUid: 'uid-0', keepFinalizer: true }]);

    // Deleted before a pass let go of it (an operator restart in between): the deletion does.
    const deleting = new ScriptedProvisioner();
    withNode(deleting, { namespace: 'test', name: 'host-0' });
    const deleted = harness({ provisioner: deleting, host: host({ metadata: { deletionTimestamp: '2026-05-01T11:59:00Z' }, status: registeredStatus('deleting') }) }).h;
    deleted.secrets.set('test/old-secret', heldByHost('old-secret'));
    expect(await deleted.reconcile()).toEqual({});
    expect(deleted.secretsLetGo).toEqual([{ secret: 'test/old-secret', ownerUid: 'uid-0', keepFinalizer: false }]);
    expect(deleted.releasedSecrets).toEqual(['test/bmc-secret']);
  });

  it('leaves a host it already released alone, not claiming its Secret again', async () => {
    // One pass went from available to the release; the watch event of the finalizer removal shows
    // the host as stored then: still available, no finalizer of ours, not deleted yet.
    const { h, provisioner } = harness({
      host: host({ metadata: { deletionTimestamp: '2026-05-01T11:59:00Z', finalizers: [] }, status: registeredStatus('available') }),
    });
    expect(await h.reconcile()).toEqual({});
    expect(h.claims).toEqual([]);
    expect(h.patches).toEqual([]);
    expect(provisioner.calls).toEqual([]);
  });

  it('claims the Secret of a host being deleted without a finalizer, whatever state it was saved in', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const { h } = harness({ host: host({ metadata: { deletionTimestamp: '2026-05-01T11:59:00Z' }, status: registeredStatus('available') }), provisioner });
    await h.reconcile();
    expect(h.claims).toEqual([{ name: 'bmc-secret', finalizer: false, owner: 'host-0' }]);
  });

  it('goes on deleting without credentials', async () => {
    // The provisioner powers off and forgets the host at once, so one pass goes all the way to the release.
    const { h, provisioner } = harness({ host: host({ metadata: { deletionTimestamp: '2026-05-01T11:59:00Z' }, status: registeredStatus('available') }), secret: false });
    expect(await h.reconcile()).toEqual({});
    expect(h.statusPatches()).toEqual([]);
    expect(await h.metric('metal3_provisioning_state_change_total')).toContain('prev_state="powering off before delete",new_state="deleting"} 1');
    expect(provisioner.calls.map((call) => call.verb)).toEqual(['powerOff', 'delete']);
    expect(h.releasedHardwareData).toEqual(['test/host-0']);
    expect(h.patches.at(-1)?.body).toEqual([
      { op: 'test', path: '/metadata/finalizers/0', value: BAREMETALHOST_FINALIZER },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ]);
  });
});
