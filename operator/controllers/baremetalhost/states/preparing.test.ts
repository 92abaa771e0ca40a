import { describe, expect, it } from '@jest/globals';
import { busy, failed } from '../../../provisioner/result.ts';
import { ScriptedProvisioner } from '../testing/scripted-provisioner.ts';
import { contextFor, hostFor, registeredStatus } from '../testing/hosts.ts';
import { handlePreparing } from './preparing.ts';

const raid = { hardwareRAIDVolumes: [{ level: '1' as const, name: 'root' }] };

describe('preparing', () => {
  it('moves to available when there is nothing to apply', async () => {
    const provisioner = new ScriptedProvisioner();
    const host = hostFor({ status: registeredStatus('preparing', { errorCount: 1 }) });
    expect(await handlePreparing(host, contextFor(provisioner))).toEqual({ kind: 'complete', next: 'available' });
    expect(host.status.errorCount).toBe(0);
  });

  it('hands the target and applied RAID to the provisioner and records the target once started', async () => {
    const provisioner = new ScriptedProvisioner().script('prepare', busy(10, 'clean requested', { started: true }), busy(10, 'cleaning'));
    const host = hostFor({ spec: { raid }, status: registeredStatus('preparing') });
    const context = contextFor(provisioner);
    expect(await handlePreparing(host, context)).toEqual({ kind: 'continue', afterMs: 10 });
    expect(provisioner.callsOf('prepare')[0]).toMatchObject({ raid, rootDeviceHints: { deviceName: '/dev/sda' }, retryAfterFailure: false });
    expect(provisioner.callsOf('prepare')[0]).not.toHaveProperty('actualRaid');
    expect(host.status.provisioning.raid).toEqual(raid);
    // The next poll says what was applied, so the provisioner does not start again.
    await handlePreparing(host, context);
    expect(provisioner.callsOf('prepare')[1]).toMatchObject({ raid, actualRaid: raid });
    expect(await handlePreparing(host, context)).toEqual({ kind: 'complete', next: 'available' });
  });

  it('hands HostFirmwareSettings changes and firmware updates over, recording the updates once started', async () => {
    const provisioner = new ScriptedProvisioner().script('prepare', busy(10, 'clean requested', { started: true }));
    const host = hostFor({ status: registeredStatus('preparing') });
    const firmwareUpdates = [{ component: 'bios', url: 'http://127.0.0.1/bios.bin' }];
    const context = contextFor(provisioner, { firmwareSettingChanges: [{ name: 'ProcTurboMode', value: 'Disabled' }], firmwareUpdates });
    expect(await handlePreparing(host, context)).toEqual({ kind: 'continue', afterMs: 10 });
    expect(provisioner.callsOf('prepare')[0]).toMatchObject({ firmwareSettings: [{ name: 'ProcTurboMode', value: 'Disabled' }], firmwareUpdates });
    expect(context.recordedUpdates).toEqual([firmwareUpdates]);
  });

  it('records a preparation error and forgets the applied settings', async () => {
    const provisioner = new ScriptedProvisioner().script('prepare', failed('Cleaning failed: RAID controller missing'));
    const host = hostFor({ spec: { raid }, status: registeredStatus('preparing') });
    expect(await handlePreparing(host, contextFor(provisioner))).toEqual({
      kind: 'failed',
      errorType: 'preparation error',
      message: 'Cleaning failed: RAID controller missing',
    });
    expect(host.status.provisioning.rootDeviceHints).toBeUndefined();
  });

  it('after a failure, retries with nothing counted as applied', async () => {
    const provisioner = new ScriptedProvisioner();
    const host = hostFor({
      spec: { raid },
      status: registeredStatus('preparing', { errorType: 'preparation error', operationalStatus: 'error', errorCount: 1, provisioning: { raid } }),
    });
    expect(await handlePreparing(host, contextFor(provisioner))).toEqual({ kind: 'complete', next: 'available' });
    const call = provisioner.callsOf('prepare')[0] as Record<string, unknown>;
    expect(call).toMatchObject({ raid, retryAfterFailure: true });
    expect(call.actualRaid).toBeUndefined();
    expect(host.status.operationalStatus).toBe('OK');
  });

  it('fails on an unknown hardware profile', async () => {
    const host = hostFor({ spec: { rootDeviceHints: undefined }, status: registeredStatus('preparing', { hardwareProfile: 'nonsense', provisioning: { rootDeviceHints: undefined } }) });
    const action = await handlePreparing(host, contextFor(new ScriptedProvisioner()));
    expect(action).toMatchObject({ kind: 'failed', errorType: 'preparation error' });
  });
});
