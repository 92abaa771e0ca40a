import { describe, expect, it } from '@jest/globals';
import { TransientProvisionerError, busy, failed } from '../../../provisioner/result.ts';
import { ScriptedProvisioner, withNode } from '../testing/scripted-provisioner.ts';
import { contextFor, hostFor, reasonsOf, registeredStatus } from '../testing/hosts.ts';
import { handleDeleting } from './deleting.ts';

const JUST_DELETED = '2026-05-01T11:59:00Z';
const LONG_AGO = '2026-05-01T10:30:00Z';
const VERY_LONG_AGO = '2026-05-01T09:00:00Z';

describe('deleting', () => {
  it('removes the node, then lets the reconciler release the host', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = hostFor({ metadata: { deletionTimestamp: JUST_DELETED }, status: registeredStatus('deleting') });
    expect(await handleDeleting(host, contextFor(provisioner))).toEqual({ kind: 'deleted' });
    expect(provisioner.nodes.size).toBe(0);
  });

  it('waits while the provisioner is busy', async () => {
    const provisioner = new ScriptedProvisioner().script('delete', busy(10_000, 'node is cleaning'));
    const host = hostFor({ metadata: { deletionTimestamp: JUST_DELETED }, status: registeredStatus('deleting') });
    expect(await handleDeleting(host, contextFor(provisioner))).toEqual({ kind: 'continue', afterMs: 10_000 });
  });

  it('records a failure, and gives up after more than 3', async () => {
    const provisioner = new ScriptedProvisioner().script('delete', failed('node locked'), failed('node locked'));
    const host = hostFor({ metadata: { deletionTimestamp: JUST_DELETED }, status: registeredStatus('deleting') });
    expect(await handleDeleting(host, contextFor(provisioner))).toEqual({ kind: 'failed', errorType: 'registration error', message: 'node locked' });
    host.status.errorType = 'registration error';
    host.status.errorCount = 4;
    const context = contextFor(provisioner);
    expect(await handleDeleting(host, context)).toEqual({ kind: 'deleted' });
    expect(reasonsOf(context)).toEqual(['CleanupSkipped']);
    expect(context.events[0]?.message).toContain('node in-memory-1');
  });

  it('keeps retrying transient failures, forcing the removal past the deadline, and releases at twice the deadline', async () => {
    const provisioner = new ScriptedProvisioner().script('delete', new TransientProvisionerError('ironic down'), new TransientProvisionerError('ironic down'),
      new TransientProvisionerError('ironic down'));
    const recent = hostFor({ metadata: { deletionTimestamp: JUST_DELETED }, status: registeredStatus('deleting') });
    await expect(handleDeleting(recent, contextFor(provisioner))).rejects.toThrow('ironic down');
    const late = hostFor({ metadata: { deletionTimestamp: LONG_AGO }, status: registeredStatus('deleting') });
    await expect(handleDeleting(late, contextFor(provisioner))).rejects.toThrow('ironic down');
    const veryLate = hostFor({ metadata: { deletionTimestamp: VERY_LONG_AGO }, status: registeredStatus('deleting') });
    const context = contextFor(provisioner);
    expect(await handleDeleting(veryLate, context)).toEqual({ kind: 'deleted' });
    expect(reasonsOf(context)).toEqual(['CleanupSkipped']);
    expect(context.events[0]?.message).toContain('deletion has been running for more than 2h');
    expect(context.events[0]?.message).toContain('node in-memory-');
  });

  it('asks for a forced removal past the deadline, and only then', async () => {
    const provisioner = new ScriptedProvisioner().script('delete', busy(3_000, 'node is deploying'), busy(3_000, 'node is locked'));
    const recent = hostFor({ metadata: { deletionTimestamp: JUST_DELETED }, status: registeredStatus('deleting') });
    expect(await handleDeleting(recent, contextFor(provisioner))).toEqual({ kind: 'continue', afterMs: 3_000 });
    const late = hostFor({ metadata: { deletionTimestamp: LONG_AGO }, status: registeredStatus('deleting') });
    expect(await handleDeleting(late, contextFor(provisioner))).toEqual({ kind: 'continue', afterMs: 3_000 });
    expect(provisioner.calls.filter((call) => call.verb === 'delete').map((call) => call.options)).toEqual([
      expect.not.objectContaining({ forceRemoval: true }),
      expect.objectContaining({ forceRemoval: true }),
    ]);
  });

  it('cuts a never-ending busy short at twice the deadline', async () => {
    const provisioner = new ScriptedProvisioner().script('delete', busy(10_000, 'node is deploying'));
    const host = hostFor({ metadata: { deletionTimestamp: VERY_LONG_AGO }, status: registeredStatus('deleting') });
    const context = contextFor(provisioner);
    expect(await handleDeleting(host, context)).toEqual({ kind: 'deleted' });
    expect(reasonsOf(context)).toEqual(['CleanupSkipped']);
  });

  it('has no deadline when the timeout is 0', async () => {
    const provisioner = new ScriptedProvisioner().script('delete', new TransientProvisionerError('ironic down'));
    const host = hostFor({ metadata: { deletionTimestamp: VERY_LONG_AGO }, status: registeredStatus('deleting') });
    const context = contextFor(provisioner, { settings: { maxProvisioningRetries: 5, deletionTimeoutMs: 0 } });
    await expect(handleDeleting(host, context)).rejects.toThrow('ironic down');
  });
});
