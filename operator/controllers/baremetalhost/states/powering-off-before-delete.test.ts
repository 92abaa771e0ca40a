import { describe, expect, it } from '@jest/globals';
import { NeedsRegistrationError, busy, failed } from '../../../provisioner/result.ts';
import { ScriptedProvisioner, withNode } from '../testing/scripted-provisioner.ts';
import { contextFor, hostFor, reasonsOf, registeredStatus } from '../testing/hosts.ts';
import { handlePoweringOffBeforeDelete } from './powering-off-before-delete.ts';

const deleting = { deletionTimestamp: '2026-05-01T11:59:00Z' };

describe('powering off before delete', () => {
  it('powers off hard, interrupting other work, then moves to deleting', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: true });
    const host = hostFor({ metadata: deleting, status: registeredStatus('powering off before delete', { poweredOn: true, errorCount: 2 }) });
    expect(await handlePoweringOffBeforeDelete(host, contextFor(provisioner))).toEqual({ kind: 'complete', next: 'deleting' });
    expect(provisioner.callsOf('powerOff')[0]).toMatchObject({ mode: 'hard', force: true, automatedCleaningMode: 'metadata' });
    expect(host.status).toMatchObject({ poweredOn: false, errorCount: 0 });
  });

  it('waits while the power changes, with one PowerOff event for the request', async () => {
    const provisioner = new ScriptedProvisioner()
      .script('powerOff', busy(3000, 'power off requested', { started: true }), busy(3000, 'waiting for power off'));
    const host = hostFor({ metadata: deleting, status: registeredStatus('powering off before delete') });
    const context = contextFor(provisioner);
    expect(await handlePoweringOffBeforeDelete(host, context)).toEqual({ kind: 'continue', afterMs: 3000 });
    expect(await handlePoweringOffBeforeDelete(host, context)).toEqual({ kind: 'continue', afterMs: 3000 });
    expect(reasonsOf(context)).toEqual(['PowerOff']);
  });

  it('records a power management error', async () => {
    const provisioner = new ScriptedProvisioner().script('powerOff', failed('BMC unreachable'));
    const host = hostFor({ metadata: deleting, status: registeredStatus('powering off before delete') });
    expect(await handlePoweringOffBeforeDelete(host, contextFor(provisioner))).toEqual({
      kind: 'failed',
      errorType: 'power management error',
      message: 'BMC unreachable',
    });
  });

  it('skips the power off when power off is disabled', async () => {
    const provisioner = new ScriptedProvisioner();
    const host = hostFor({ metadata: deleting, spec: { disablePowerOff: true }, status: registeredStatus('powering off before delete') });
    expect(await handlePoweringOffBeforeDelete(host, contextFor(provisioner))).toEqual({ kind: 'complete', next: 'deleting' });
    expect(provisioner.callsOf('powerOff')).toEqual([]);
  });

  it('skips to deleting without a node and without credentials', async () => {
    const provisioner = new ScriptedProvisioner().script('powerOff', new NeedsRegistrationError('no node'));
    const host = hostFor({ metadata: deleting, status: registeredStatus('powering off before delete') });
    const context = contextFor(provisioner, { credentials: undefined });
    expect(await handlePoweringOffBeforeDelete(host, context)).toEqual({ kind: 'complete', next: 'deleting' });
    expect(context.metrics).toEqual([{ metric: 'deleteWithoutPoweringOff' }]);
  });
});
