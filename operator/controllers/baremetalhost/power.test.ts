import { describe, expect, it } from '@jest/globals';
import { REBOOT_ANNOTATION_PREFIX } from '../../api/annotations.ts';
import { busy, failed } from '../../provisioner/result.ts';
import { manageHostPower } from './power.ts';
import { ScriptedProvisioner, withNode } from './testing/scripted-provisioner.ts';
import { TEST_NOW, contextFor, hostFor, reasonsOf, registeredStatus } from './testing/hosts.ts';

describe('power management at rest', () => {
  it('mirrors the observed power state first, and rests in the same pass when that is what the spec asks for', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: true });
    const host = hostFor({ status: registeredStatus('provisioned', { poweredOn: false, operationalStatus: 'error', errorType: 'power management error' }) });
    expect(await manageHostPower(host, contextFor(provisioner))).toEqual({ kind: 'continue', idle: true });
    expect(host.status).toMatchObject({ poweredOn: true, operationalStatus: 'OK' });
    expect(provisioner.callsOf('powerOn')).toEqual([]);
  });

  it('acts on a power state it just observed in the same pass', async () => {
    const provisioner = new ScriptedProvisioner().script('powerOn', busy(3000, 'powering on', { started: true }));
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: false });
    // Powered off behind the operator's back: recorded, and powered on again at once.
    const host = hostFor({ status: registeredStatus('provisioned', { poweredOn: true }) });
    expect(await manageHostPower(host, contextFor(provisioner))).toEqual({ kind: 'continue', afterMs: 3000 });
    expect(host.status.poweredOn).toBe(false);
    expect(provisioner.callsOf('powerOn')).toHaveLength(1);
  });

  it('powers on an online host and powers off an offline one, softly first', async () => {
    const provisioner = new ScriptedProvisioner()
      .script('powerOn', busy(3000, 'powering on', { started: true }))
      .script('powerOff', busy(3000, 'powering off', { started: true }));
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const context = contextFor(provisioner);
    expect(await manageHostPower(hostFor({ status: registeredStatus('available') }), context)).toEqual({ kind: 'continue', afterMs: 3000 });
    provisioner.nodeOf({ namespace: 'test', name: 'host-0' })!.poweredOn = true;
    const offline = hostFor({ spec: { online: false }, status: registeredStatus('available', { poweredOn: true }) });
    await manageHostPower(offline, context);
    expect(provisioner.callsOf('powerOff')[0]).toMatchObject({ mode: 'soft', force: false });
    expect(reasonsOf(context)).toEqual(['PowerOn', 'PowerOff']);
    expect(context.metrics).toEqual([{ metric: 'powerChange', on: true }, { metric: 'powerChange', on: false }]);
  });

  it('reports a power change once, when it is requested, not on every reconcile while it is under way', async () => {
    const provisioner = new ScriptedProvisioner()
      .script('powerOff', busy(3000, 'soft power off requested', { started: true }), busy(3000, 'waiting for power off'), busy(3000, 'waiting for power off'));
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: true });
    const host = hostFor({ spec: { online: false }, status: registeredStatus('provisioned', { poweredOn: true }) });
    const context = contextFor(provisioner);
    for (let poll = 0; poll < 3; poll++) expect(await manageHostPower(host, context)).toEqual({ kind: 'continue', afterMs: 3000 });
    expect(reasonsOf(context)).toEqual(['PowerOff']);
    expect(context.metrics).toEqual([{ metric: 'powerChange', on: false }]);
  });

  it('goes hard after an error, and prefixes a failed soft power off', async () => {
    const provisioner = new ScriptedProvisioner().script('powerOff', failed('soft off unsupported'), failed('BMC gone'));
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: true });
    const host = hostFor({ spec: { online: false }, status: registeredStatus('provisioned', { poweredOn: true }) });
    expect(await manageHostPower(host, contextFor(provisioner))).toEqual({
      kind: 'failed',
      errorType: 'power management error',
      message: 'Continuing with hard poweroff after soft poweroff fails. More details: soft off unsupported',
    });
    host.status.errorType = 'power management error';
    host.status.errorCount = 1;
    await manageHostPower(host, contextFor(provisioner));
    expect(provisioner.callsOf('powerOff')[1]).toMatchObject({ mode: 'hard', force: true });
  });

  it('retries a failed power change only after its backoff, whatever wakes the host sooner', async () => {
    const provisioner = new ScriptedProvisioner().script('powerOff', busy(3000, 'hard power off requested', { started: true }));
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: true });
    // The soft power off failed 10 s ago (errorCount 1: a backoff of 1-2 minutes).
    const failedAt = new Date(TEST_NOW.getTime() - 10_000).toISOString();
    const host = hostFor({
      spec: { online: false },
      status: registeredStatus('externally provisioned', {
        poweredOn: true, operationalStatus: 'error', errorType: 'power management error', errorCount: 1, lastUpdated: failedAt,
      }),
    });
    expect(await manageHostPower(host, contextFor(provisioner))).toEqual({ kind: 'continue', afterMs: 50_000 });
    expect(provisioner.callsOf('powerOff')).toEqual([]);

    host.status.lastUpdated = new Date(TEST_NOW.getTime() - 60_000).toISOString();
    await manageHostPower(host, contextFor(provisioner));
    expect(provisioner.callsOf('powerOff')).toEqual([expect.objectContaining({ mode: 'hard', force: true })]);
  });

  it('does a one-shot reboot: off while annotated, annotation dropped once off, then back on', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: true });
    const annotations = { [REBOOT_ANNOTATION_PREFIX]: '{"mode":"hard"}' };
    const host = hostFor({ metadata: { annotations }, status: registeredStatus('provisioned', { poweredOn: true }) });
    const context = contextFor(provisioner);
    expect(await manageHostPower(host, context)).toEqual({ kind: 'update', idle: true });
    expect(provisioner.callsOf('powerOff')[0]).toMatchObject({ mode: 'hard' });
    expect(await manageHostPower(host, context)).toEqual({ kind: 'continue' });
    expect(context.removedAnnotations).toEqual([[REBOOT_ANNOTATION_PREFIX]]);
  });

  it('holds the host off while a phased reboot annotation exists, and ignores unforced ones outside provisioned', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: false });
    const annotations = { [`${REBOOT_ANNOTATION_PREFIX}/remediation`]: '' };
    const held = hostFor({ metadata: { annotations }, status: registeredStatus('provisioned') });
    expect(await manageHostPower(held, contextFor(provisioner))).toEqual({ kind: 'continue', idle: true });
    const available = hostFor({ metadata: { annotations }, status: registeredStatus('available') });
    await manageHostPower(available, contextFor(provisioner));
    expect(provisioner.callsOf('powerOn')).toHaveLength(1);
  });

  it('reports an unreadable reboot annotation and assumes soft', async () => {
    const provisioner = new ScriptedProvisioner().script('powerOff', busy(10, 'off'));
    withNode(provisioner, { namespace: 'test', name: 'host-0' }, { poweredOn: true });
    const host = hostFor({ metadata: { annotations: { [REBOOT_ANNOTATION_PREFIX]: 'hard!' } }, status: registeredStatus('provisioned', { poweredOn: true }) });
    const context = contextFor(provisioner);
    await manageHostPower(host, context);
    expect(reasonsOf(context)[0]).toBe('InvalidAnnotationValue');
    expect(provisioner.callsOf('powerOff')[0]).toMatchObject({ mode: 'soft' });
  });
});
