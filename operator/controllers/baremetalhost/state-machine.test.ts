import { describe, expect, it } from '@jest/globals';
import { DETACHED_ANNOTATION } from '../../api/annotations.ts';
import { PROVISIONING_STATES } from '../../api/provisioning-state.ts';
import type { ProvisioningState } from '../../api/provisioning-state.ts';
import { TransientProvisionerError, busy, failed } from '../../provisioner/result.ts';
import { reconcileState } from './state-machine.ts';
import { ScriptedProvisioner, withNode } from './testing/scripted-provisioner.ts';
import { contextFor, hostFor, reasonsOf, registeredStatus } from './testing/hosts.ts';

const image = { url: 'http://127.0.0.1/image.raw', checksum: 'abc', checksumType: 'sha256' as const };
const DELETED_AT = '2026-05-01T11:59:00Z';

describe('the state machine', () => {
  it('takes a new host from none to available through every step, recording history and events', async () => {
    const provisioner = new ScriptedProvisioner();
    const host = hostFor({ status: { lastUpdated: '2026-05-01T11:00:00Z' } });
    const context = contextFor(provisioner);
    const states: ProvisioningState[] = [];
    for (let pass = 0; pass < 10 && host.status.provisioning.state !== 'available'; pass++) {
      await reconcileState(host, context);
      states.push(host.status.provisioning.state);
    }
    expect([...new Set(states)]).toEqual(['registering', 'inspecting', 'preparing', 'available']);
    expect(host.status.provisioning.ID).toBe('in-memory-1');
    expect(host.status.goodCredentials).toEqual({ credentials: { name: 'bmc-secret', namespace: 'test' }, credentialsVersion: '10' });
    expect(host.status.operationHistory?.register?.end).toBeTruthy();
    expect(host.status.operationHistory?.inspect?.end).toBeTruthy();
    expect(reasonsOf(context)).toEqual(
      expect.arrayContaining(['Registered', 'BMCAccessValidated', 'ProfileSet', 'InspectionStarted', 'InspectionComplete']),
    );
    expect(context.metrics).toEqual(expect.arrayContaining([{ metric: 'stateChange', from: 'registering', to: 'inspecting' }]));
    expect(context.storedHardware).toHaveLength(1);
  });

  it('records failures: error status, errorCount, event and metric', async () => {
    const provisioner = new ScriptedProvisioner().script('inspect', failed('no inventory'));
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = hostFor({ status: registeredStatus('inspecting', { errorCount: 2 }) });
    const context = contextFor(provisioner);
    expect(await reconcileState(host, context)).toMatchObject({ kind: 'failed' });
    expect(host.status).toMatchObject({ operationalStatus: 'error', errorType: 'inspection error', errorMessage: 'no inventory', errorCount: 3 });
    expect(context.events).toEqual([{ type: 'Warning', reason: 'InspectionError', message: 'no inventory' }]);
    expect(context.metrics).toContainEqual({ metric: 'hostError', errorType: 'inspection error' });
    expect(host.status.provisioning.state).toBe('inspecting');
  });

  it('records nothing when the provisioner is unreachable', async () => {
    const provisioner = new ScriptedProvisioner().script('register', new TransientProvisionerError('connection refused'));
    const host = hostFor({ status: registeredStatus('available') });
    const before = structuredClone(host.status);
    await expect(reconcileState(host, contextFor(provisioner))).rejects.toBeInstanceOf(TransientProvisionerError);
    expect(host.status).toEqual(before);
  });

  it('delays entering a capacity-limited state without a free slot', async () => {
    const provisioner = new ScriptedProvisioner();
    let slotFree = false;
    const host = hostFor({ spec: { image }, status: registeredStatus('available') });
    const context = contextFor(provisioner, { takeProvisioningSlot: () => slotFree });
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    expect(await reconcileState(host, context)).toEqual({ kind: 'delayed' });
    expect(host.status).toMatchObject({ operationalStatus: 'delayed', provisioning: { state: 'available' } });
    expect(context.metrics).toContainEqual({ metric: 'delayed', deprovisioning: false });
    expect(provisioner.callsOf('provision')).toEqual([]);
    // Once a slot frees up the delay is lifted and the host enters the state in the same pass
    // (one status write, the slot never let go in between).
    slotFree = true;
    expect(await reconcileState(host, context)).toEqual({ kind: 'complete', next: 'provisioning' });
    expect(host.status).toMatchObject({ operationalStatus: 'OK', provisioning: { state: 'provisioning' } });
  });

  it('refuses a transition that is not in the table', async () => {
    const provisioner = new ScriptedProvisioner();
    const host = hostFor({ status: registeredStatus('available') });
    const context = contextFor(provisioner);
    const { STATE_HANDLERS } = await import('./states/index.ts');
    const original = STATE_HANDLERS.available;
    (STATE_HANDLERS as Record<string, unknown>).available = async () => ({ kind: 'complete', next: 'deleting' });
    try {
      withNode(provisioner, { namespace: 'test', name: 'host-0' });
      await expect(reconcileState(host, context)).rejects.toThrow('no transition from "available" to "deleting"');
    } finally {
      (STATE_HANDLERS as Record<string, unknown>).available = original;
    }
  });

  describe('deletion', () => {
    const routes: Array<[ProvisioningState, ProvisioningState]> = [
      ['', 'deleting'],
      ['unmanaged', 'deleting'],
      ['registering', 'deleting'],
      ['match profile', 'powering off before delete'],
      ['inspecting', 'powering off before delete'],
      ['preparing', 'powering off before delete'],
      ['available', 'powering off before delete'],
      ['ready', 'powering off before delete'],
      ['externally provisioned', 'powering off before delete'],
      ['provisioning', 'deprovisioning'],
      ['provisioned', 'deprovisioning'],
    ];
    it.each(routes)('routes a host in "%s" to "%s"', async (from, to) => {
      const host = hostFor({ metadata: { deletionTimestamp: DELETED_AT }, status: registeredStatus(from) });
      expect(await reconcileState(host, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: to });
      expect(host.status.provisioning.state).toBe(to);
    });

    it('covers every state', () => {
      const routed = new Set([...routes.map(([from]) => from), 'deprovisioning', 'powering off before delete', 'deleting']);
      expect(PROVISIONING_STATES.filter((state) => !routed.has(state))).toEqual([]);
    });

    it('sends detached hosts straight to deleting, unless deleteAction is delay', async () => {
      const detached = hostFor({ metadata: { deletionTimestamp: DELETED_AT, annotations: { [DETACHED_ANNOTATION]: '' } }, status: registeredStatus('provisioned') });
      expect(await reconcileState(detached, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'deleting' });
      const delayed = hostFor({
        metadata: { deletionTimestamp: DELETED_AT, annotations: { [DETACHED_ANNOTATION]: '{"deleteAction":"delay"}' } },
        status: registeredStatus('provisioned', { operationalStatus: 'detached' }),
      });
      const context = contextFor(new ScriptedProvisioner());
      const action = await reconcileState(delayed, context);
      expect(action).toEqual({ kind: 'continue', afterMs: 600_000 });
      expect(delayed.status.provisioning.state).toBe('provisioned');
      expect(context.metrics).toContainEqual({ metric: 'deleteDelayedForDetached' });
    });

    it('deprovisions a host deleted mid-deployment whose detach still waits (not forced), as BMO; a forced detach skips it', async () => {
      const waiting = hostFor({ metadata: { deletionTimestamp: DELETED_AT, annotations: { [DETACHED_ANNOTATION]: '' } }, status: registeredStatus('provisioning') });
      expect(await reconcileState(waiting, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'deprovisioning' });
      const forced = hostFor({ metadata: { deletionTimestamp: DELETED_AT, annotations: { [DETACHED_ANNOTATION]: '{"force":true}' } }, status: registeredStatus('provisioning') });
      expect(await reconcileState(forced, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'deleting' });
    });

    it('attaches a detached host whose annotation is gone before deleting it, as BMO delays that deletion', async () => {
      const reattaching = hostFor({ metadata: { deletionTimestamp: DELETED_AT }, status: registeredStatus('provisioned', { operationalStatus: 'detached' }) });
      const context = contextFor(new ScriptedProvisioner());
      const action = await reconcileState(reattaching, context);
      expect(action.kind).toBe('update');
      expect(reattaching.status.operationalStatus).toBe('OK');
      expect(reattaching.status.provisioning.state).toBe('provisioned');
      expect(context.metrics).toContainEqual({ metric: 'deleteDelayedForDetached' });
      // Attached again, the next pass deprovisions it.
      expect(await reconcileState(reattaching, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'deprovisioning' });
    });

    it('lets deprovisioning and powering off run on, unless registration keeps failing', async () => {
      const running = hostFor({ metadata: { deletionTimestamp: DELETED_AT }, status: registeredStatus('deprovisioning') });
      const provisioner = new ScriptedProvisioner();
      withNode(provisioner, { namespace: 'test', name: 'host-0' });
      expect(await reconcileState(running, contextFor(provisioner))).toEqual({ kind: 'complete', next: 'powering off before delete' });
      const stuck = hostFor({
        metadata: { deletionTimestamp: DELETED_AT },
        status: registeredStatus('powering off before delete', { errorType: 'registration error', errorCount: 4, operationalStatus: 'error' }),
      });
      expect(await reconcileState(stuck, contextFor(new ScriptedProvisioner()))).toEqual({ kind: 'complete', next: 'deleting' });
    });

    it('gives up deprovisioning after more than 3 failures, saying so', async () => {
      const provisioner = new ScriptedProvisioner().script('deprovision', failed('clean failed'));
      withNode(provisioner, { namespace: 'test', name: 'host-0' });
      const host = hostFor({ metadata: { deletionTimestamp: DELETED_AT }, status: registeredStatus('deprovisioning', { errorType: 'provisioning error', errorCount: 3 }) });
      const context = contextFor(provisioner);
      expect(await reconcileState(host, context)).toEqual({ kind: 'complete', next: 'powering off before delete' });
      expect(host.status).toMatchObject({ errorCount: 4, errorType: 'provisioning error', provisioning: { state: 'powering off before delete' } });
      expect(reasonsOf(context)).toEqual(['ProvisioningError', 'CleanupSkipped']);
      expect(context.metrics).toContainEqual({ metric: 'deleteWithoutDeprovisioning' });
    });

    it('gives up powering off after more than 3 failures', async () => {
      const provisioner = new ScriptedProvisioner().script('powerOff', failed('BMC unreachable'));
      withNode(provisioner, { namespace: 'test', name: 'host-0' });
      const host = hostFor({ metadata: { deletionTimestamp: DELETED_AT }, status: registeredStatus('powering off before delete', { errorCount: 3 }) });
      const context = contextFor(provisioner);
      expect(await reconcileState(host, context)).toEqual({ kind: 'complete', next: 'deleting' });
      expect(context.metrics).toContainEqual({ metric: 'deleteWithoutPoweringOff' });
    });

    it('skips remaining cleanup past the deletion deadline, even with a provisioner that never answers', async () => {
      const provisioner = new ScriptedProvisioner();
      const host = hostFor({ metadata: { deletionTimestamp: '2026-05-01T10:00:00Z' }, status: registeredStatus('deprovisioning') });
      const context = contextFor(provisioner, { credentials: undefined, takeProvisioningSlot: () => false });
      expect(await reconcileState(host, context)).toEqual({ kind: 'complete', next: 'powering off before delete' });
      expect(await reconcileState(host, context)).toEqual({ kind: 'complete', next: 'deleting' });
      expect(reasonsOf(context)).toEqual(['CleanupSkipped', 'CleanupSkipped']);
      expect(provisioner.callsOf('deprovision')).toEqual([]);
    });

    it('gives up powering off past the deletion deadline while registration keeps failing, without registering again', async () => {
      // Ironic lost the node and the BMC fails verification: registration fails before the handler runs.
      const provisioner = new ScriptedProvisioner().script('register', failed('Failed to get power state'));
      const host = hostFor({
        metadata: { deletionTimestamp: '2026-05-01T10:00:00Z' },
        status: registeredStatus('powering off before delete', { errorType: 'registration error', errorCount: 1, operationalStatus: 'error' }),
      });
      const context = contextFor(provisioner);
      expect(await reconcileState(host, context)).toEqual({ kind: 'complete', next: 'deleting' });
      expect(context.events).toContainEqual({
        type: 'Warning', reason: 'CleanupSkipped', message: 'giving up on powering off the host before deletion (deletion has been running for more than 1h)',
      });
      expect(provisioner.callsOf('register')).toEqual([]);
    });

    it('does not register hosts being deleted without credentials', async () => {
      const provisioner = new ScriptedProvisioner().script('deprovision', busy(10, 'cleaning'));
      const host = hostFor({ metadata: { deletionTimestamp: DELETED_AT }, status: registeredStatus('deprovisioning') });
      await reconcileState(host, contextFor(provisioner, { credentials: undefined }));
      expect(provisioner.callsOf('register')).toEqual([]);
    });
  });
});
