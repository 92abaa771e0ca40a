import { describe, expect, it } from '@jest/globals';
import { INSPECT_ANNOTATION, REBOOT_ANNOTATION_PREFIX } from '../../../api/annotations.ts';
import { TransientProvisionerError, busy, failed } from '../../../provisioner/result.ts';
import { FIXTURE_HARDWARE, ScriptedProvisioner, withNode } from '../testing/scripted-provisioner.ts';
import { contextFor, hostFor, reasonsOf, registeredStatus } from '../testing/hosts.ts';
import { handleInspecting } from './inspecting.ts';

const inspecting = (extra: Parameters<typeof hostFor>[0] = {}) => hostFor({ status: registeredStatus('inspecting'), ...extra });

describe('inspecting', () => {
  it('polls while the provisioner inspects, then stores the hardware and moves to preparing', async () => {
    const provisioner = new ScriptedProvisioner({ busyPolls: 1 });
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = inspecting();
    const context = contextFor(provisioner);
    expect(await handleInspecting(host, context)).toEqual({ kind: 'continue', afterMs: 10 });
    expect(await handleInspecting(host, context)).toEqual({ kind: 'complete', next: 'preparing' });
    expect(host.status.hardware).toEqual(FIXTURE_HARDWARE);
    expect(context.storedHardware).toEqual([FIXTURE_HARDWARE]);
    expect(reasonsOf(context)).toEqual(['InspectionComplete']);
  });

  it('asks with the mode, boot mode, architecture and BMC of the host', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    await handleInspecting(inspecting({ spec: { inspectionMode: 'fast', architecture: 'aarch64' } }), contextFor(provisioner));
    expect(provisioner.callsOf('inspect')[0]).toMatchObject({
      mode: 'fast',
      bootMode: 'UEFI',
      architecture: 'aarch64',
      refresh: false,
      retryAfterFailure: false,
      forceReboot: false,
      bmc: { driver: 'redfish' },
    });
  });

  it('records an inspection error and retries the operation next time', async () => {
    const provisioner = new ScriptedProvisioner().script('inspect', failed('timeout reached while inspecting the node'));
    const host = inspecting();
    expect(await handleInspecting(host, contextFor(provisioner))).toEqual({
      kind: 'failed',
      errorType: 'inspection error',
      message: 'timeout reached while inspecting the node',
    });
    host.status.errorType = 'inspection error';
    provisioner.script('inspect', busy(10, 'inspecting'));
    await handleInspecting(host, contextFor(provisioner));
    expect(provisioner.callsOf('inspect')[1]).toMatchObject({ retryAfterFailure: true });
  });

  it('clears a stale error while the inspection runs', async () => {
    const provisioner = new ScriptedProvisioner().script('inspect', busy(10, 'inspecting'));
    const host = inspecting({ status: registeredStatus('inspecting', { operationalStatus: 'error', errorType: 'inspection error', errorMessage: 'old' }) });
    await handleInspecting(host, contextFor(provisioner));
    expect(host.status).toMatchObject({ operationalStatus: 'OK', errorMessage: '' });
    expect(host.status.errorType).toBeUndefined();
  });

  it('consumes the re-inspection and one-shot reboot annotations once a new inspection started', async () => {
    const provisioner = new ScriptedProvisioner().script('inspect', busy(10, 'inspect requested', { started: true }));
    const host = inspecting({ metadata: { annotations: { [INSPECT_ANNOTATION]: '', [REBOOT_ANNOTATION_PREFIX]: '' } } });
    const context = contextFor(provisioner);
    expect(await handleInspecting(host, context)).toEqual({ kind: 'continue' });
    expect(provisioner.callsOf('inspect')[0]).toMatchObject({ refresh: true });
    expect(context.removedAnnotations).toEqual([[INSPECT_ANNOTATION, REBOOT_ANNOTATION_PREFIX]]);
  });

  it('skips inspection when disabled', async () => {
    const provisioner = new ScriptedProvisioner();
    const context = contextFor(provisioner);
    expect(await handleInspecting(inspecting({ spec: { inspectionMode: 'disabled' } }), context)).toEqual({ kind: 'complete', next: 'preparing' });
    expect(reasonsOf(context)).toEqual(['InspectionSkipped']);
    expect(provisioner.callsOf('inspect')).toEqual([]);
  });

  it('does not create HardwareData for a host being deleted', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const context = contextFor(provisioner);
    await handleInspecting(inspecting({ metadata: { deletionTimestamp: '2026-05-01T11:59:00Z' } }), context);
    expect(context.storedHardware).toEqual([]);
  });

  it('lets transient provisioner errors through, recording nothing', async () => {
    const provisioner = new ScriptedProvisioner().script('inspect', new TransientProvisionerError('ironic unreachable'));
    const host = inspecting();
    const before = structuredClone(host.status);
    await expect(handleInspecting(host, contextFor(provisioner))).rejects.toThrow('ironic unreachable');
    expect(host.status).toEqual(before);
  });
});
