import { describe, expect, it } from '@jest/globals';
import { busy, done, failed } from '../../provisioner/result.ts';
import { manageHostPower } from './power.ts';
import { servicingChanges } from './servicing.ts';
import type { TestContext } from './testing/hosts.ts';
import { contextFor, hostFor, registeredStatus } from './testing/hosts.ts';
import { ScriptedProvisioner, withNode } from './testing/scripted-provisioner.ts';

const TURBO_OFF = { name: 'ProcTurboMode', value: 'Disabled' };
const BIOS_UPDATE = { component: 'bios', url: 'http://127.0.0.1/bios.bin' };
const NODE = { namespace: 'test', name: 'host-0' };

/** A provisioned host that is off and meant to be on: what a reboot's power-on looks like. */
const poweringOn = (extra: Parameters<typeof registeredStatus>[1] = {}) => hostFor({ status: registeredStatus('provisioned', { poweredOn: false, ...extra }) });

function servicingContext(provisioner: ScriptedProvisioner, overrides: Partial<TestContext> = {}): TestContext {
  const context = contextFor(provisioner, {
    firmwareSettingChanges: [TURBO_OFF],
    firmwareSpec: { settings: true, updates: false },
    ...overrides,
  });
  context.updatePolicy = { firmwareSettings: 'onReboot' };
  return context;
}

describe('what the HostUpdatePolicy lets servicing apply', () => {
  const pending = { firmwareSettingChanges: [TURBO_OFF], firmwareUpdates: [BIOS_UPDATE], firmwareSpec: { settings: true, updates: true } };

  it('nothing without a policy or with onPreparing', () => {
    expect(servicingChanges(undefined, pending)).toEqual({ hasFirmwareSpec: false });
    expect(servicingChanges({ firmwareSettings: 'onPreparing', firmwareUpdates: 'onPreparing' }, pending)).toEqual({ hasFirmwareSpec: false });
  });

  it('each kind set to onReboot, and only that kind', () => {
    expect(servicingChanges({ firmwareSettings: 'onReboot' }, pending)).toEqual({ firmwareSettings: [TURBO_OFF], hasFirmwareSpec: true });
    expect(servicingChanges({ firmwareUpdates: 'onReboot' }, pending)).toEqual({ firmwareUpdates: [BIOS_UPDATE], hasFirmwareSpec: true });
  });

  it('still has a spec when every change is applied, and none once the spec is emptied', () => {
    expect(servicingChanges({ firmwareSettings: 'onReboot' }, { firmwareSpec: { settings: true, updates: false } })).toEqual({ hasFirmwareSpec: true });
    expect(servicingChanges({ firmwareSettings: 'onReboot' }, { firmwareSpec: { settings: false, updates: false } })).toEqual({ hasFirmwareSpec: false });
  });
});

describe('servicing on the way to power on', () => {
  it('marks the host servicing, runs servicing instead of powering on, and is OK once the provisioner is done', async () => {
    const provisioner = new ScriptedProvisioner().script('service', busy(10_000, 'service requested', { started: true }), busy(10_000, 'servicing'), done());
    withNode(provisioner, NODE);
    const host = poweringOn({ errorCount: 1 });
    const context = servicingContext(provisioner);

    // Saved first, before Ironic is asked.
    expect(await manageHostPower(host, context)).toEqual({ kind: 'update' });
    expect(host.status.operationalStatus).toBe('servicing');
    expect(provisioner.callsOf('service')).toEqual([]);

    expect(await manageHostPower(host, context)).toEqual({ kind: 'continue', afterMs: 10_000 });
    expect(provisioner.callsOf('service')).toEqual([
      { host: expect.objectContaining({ name: 'host-0', nodeId: 'in-memory-1' }), firmwareSettings: [TURBO_OFF], hasFirmwareSpec: true, changesPending: true, retryAfterFailure: false },
    ]);
    expect(await manageHostPower(host, context)).toEqual({ kind: 'continue', afterMs: 10_000 });
    expect(await manageHostPower(host, context)).toEqual({ kind: 'update' });
    expect(host.status).toMatchObject({ operationalStatus: 'OK', errorCount: 0 });
    expect(provisioner.callsOf('powerOn')).toEqual([]);
  });

  it('powers a host without a policy on as usual, having looked for one', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, NODE);
    const host = poweringOn();
    const context = servicingContext(provisioner);
    context.updatePolicy = undefined;

    await manageHostPower(host, context);
    expect(context.policyLookups).toBe(1);
    expect(provisioner.callsOf('service')).toEqual([]);
    expect(provisioner.callsOf('powerOn')).toHaveLength(1);
    expect(host.status.operationalStatus).toBe('OK');
  });

  it('leaves a running host, and an available one, alone: changes wait for the next power-on', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, NODE, { poweredOn: true });
    const running = hostFor({ status: registeredStatus('provisioned', { poweredOn: true }) });
    const context = servicingContext(provisioner);
    expect(await manageHostPower(running, context)).toEqual({ kind: 'continue', idle: true });

    provisioner.nodeOf(NODE)!.poweredOn = false;
    const available = hostFor({ status: registeredStatus('available', { poweredOn: false }) });
    await manageHostPower(available, context);

    expect(context.policyLookups).toBe(0);
    expect(provisioner.callsOf('service')).toEqual([]);
    expect(provisioner.callsOf('powerOn')).toHaveLength(1);
  });

  it('records firmware updates once servicing started them', async () => {
    const provisioner = new ScriptedProvisioner().script('service', busy(10_000, 'service requested', { started: true }));
    withNode(provisioner, NODE);
    const host = poweringOn({ operationalStatus: 'servicing' });
    const context = servicingContext(provisioner, { firmwareSettingChanges: [], firmwareUpdates: [BIOS_UPDATE], firmwareSpec: { settings: false, updates: true } });
    context.updatePolicy = { firmwareUpdates: 'onReboot' };

    await manageHostPower(host, context);
    expect(provisioner.callsOf('service')[0]).toMatchObject({ firmwareUpdates: [BIOS_UPDATE], changesPending: true });
    expect(context.recordedUpdates).toEqual([[BIOS_UPDATE]]);
  });

  it('reports a failure as a servicing error, then retries it past the error', async () => {
    const provisioner = new ScriptedProvisioner().script('service', failed('Redfish BIOS apply_configuration step failed.'), busy(10_000, 'service requested', { started: true }));
    withNode(provisioner, NODE, { poweredOn: true });
    const host = hostFor({ status: registeredStatus('provisioned', { poweredOn: true, operationalStatus: 'servicing' }) });
    const context = servicingContext(provisioner, { firmwareSettingChanges: [] });

    expect(await manageHostPower(host, context)).toEqual({ kind: 'failed', errorType: 'servicing error', message: 'Redfish BIOS apply_configuration step failed.' });
    Object.assign(host.status, { operationalStatus: 'error', errorType: 'servicing error', errorMessage: 'Redfish BIOS apply_configuration step failed.', errorCount: 1 });

    // The host is running again, yet a servicing error is followed up; servicing shows first.
    expect(await manageHostPower(host, context)).toEqual({ kind: 'update' });
    expect(host.status).toMatchObject({ operationalStatus: 'servicing', errorType: 'servicing error' });
    expect(await manageHostPower(host, context)).toEqual({ kind: 'update', afterMs: 10_000 });
    expect(provisioner.callsOf('service')[1]).toMatchObject({ retryAfterFailure: true });
    expect(host.status).toMatchObject({ operationalStatus: 'servicing', errorMessage: '' });
    expect(host.status.errorType).toBeUndefined();
  });

  it('tells the provisioner when the user withdrew every change, so it can abort', async () => {
    const provisioner = new ScriptedProvisioner().script('service', busy(3_000, 'abort requested', { started: true }));
    withNode(provisioner, NODE);
    const host = poweringOn({ operationalStatus: 'servicing' });
    const context = servicingContext(provisioner, { firmwareSettingChanges: [], firmwareSpec: { settings: false, updates: false } });

    await manageHostPower(host, context);
    expect(provisioner.callsOf('service')[0]).toMatchObject({ hasFirmwareSpec: false, changesPending: false });
  });
});
