import { describe, expect, it } from '@jest/globals';
import { NODE_UUID, makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { FakeClock } from '../../runtime/testing/fake-clock.ts';
import { SettledChanges, targetPowerStateOf } from './settled-changes.ts';

const MAX_AGE_MS = 30_000;
const off = makeNode({ power_state: 'power off', target_power_state: null, last_error: 'an old failure', driver_info: { ipmi_address: '127.0.0.1' } });
const endedOn = { uuid: NODE_UUID, power_state: 'power on', target_power_state: null, last_error: null };

function start(): { clock: FakeClock; changes: SettledChanges; readAtMs: number } {
  const clock = new FakeClock();
  return { clock, changes: new SettledChanges({ clock, maxAgeMs: MAX_AGE_MS }), readAtMs: clock.now() };
}

describe('SettledChanges: power', () => {
  it('turns a list showing the change ended into the node as read before it, with what the list shows, once', () => {
    const { clock, changes, readAtMs } = start();
    const running = changes.powerAccepted(off, 'power on', readAtMs);
    changes.listed(endedOn, clock.now());

    expect(running).toMatchObject({ power_state: 'power off', target_power_state: 'power on', last_error: null });
    expect(changes.take(NODE_UUID)).toEqual({ ...off, ...endedOn, reservation: null });
    expect(changes.take(NODE_UUID)).toBeUndefined();
  });

  it('keeps waiting while the list shows the change running, or when the list began before Ironic accepted it', async () => {
    const { clock, changes, readAtMs } = start();
    const listStartedAtMs = clock.now();
    await clock.advance(10);
    changes.powerAccepted(off, 'soft power off', readAtMs);
    changes.listed({ ...endedOn, power_state: 'power off' }, listStartedAtMs);
    changes.listed({ uuid: NODE_UUID, power_state: 'power on', target_power_state: 'power off' }, clock.now());
    expect(changes.take(NODE_UUID)).toBeUndefined();

    changes.listed({ uuid: NODE_UUID, power_state: 'power off', target_power_state: null, last_error: null }, clock.now());
    expect(changes.take(NODE_UUID)).toMatchObject({ power_state: 'power off', target_power_state: null });
  });

  it('gives nothing when the list shows a fault or maintenance, whose reason only a read has', () => {
    const { clock, changes, readAtMs } = start();
    changes.powerAccepted(off, 'power on', readAtMs);
    changes.listed({ ...endedOn, power_state: 'power off', fault: 'power failure', maintenance: true }, clock.now());
    expect(changes.take(NODE_UUID)).toBeUndefined();

    changes.powerAccepted(off, 'power on', readAtMs);
    changes.listed({ ...endedOn, maintenance: true }, clock.now());
    expect(changes.take(NODE_UUID)).toBeUndefined();
  });

  it('gives nothing once the full read it builds on is older than the limit', async () => {
    const { clock, changes, readAtMs } = start();
    await clock.advance(MAX_AGE_MS - 1_000);
    changes.powerAccepted(off, 'power on', readAtMs);
    changes.listed(endedOn, clock.now());
    await clock.advance(1_001);

    expect(changes.take(NODE_UUID)).toBeUndefined();
  });

  it('forgets the change on clear (a write or a full read) and keeps nothing when disabled', () => {
    const { clock, changes, readAtMs } = start();
    changes.powerAccepted(off, 'power on', readAtMs);
    changes.clear(NODE_UUID);
    changes.listed(endedOn, clock.now());
    expect(changes.take(NODE_UUID)).toBeUndefined();

    const disabled = new SettledChanges({ clock, maxAgeMs: 0 });
    disabled.powerAccepted(off, 'power on', readAtMs);
    disabled.listed(endedOn, clock.now());
    expect(disabled.take(NODE_UUID)).toBeUndefined();
  });

  it('names the target Ironic records while a change runs', () => {
    expect(['power on', 'rebooting', 'soft rebooting'].map((target) => targetPowerStateOf(target as 'power on'))).toEqual(['power on', 'power on', 'power on']);
    expect(['power off', 'soft power off'].map((target) => targetPowerStateOf(target as 'power off'))).toEqual(['power off', 'power off']);
  });
});

describe('SettledChanges: provision', () => {
  const deployed = makeNode({
    provision_state: 'active', target_provision_state: null, instance_uuid: 'instance-1', instance_info: { image_source: 'http://127.0.0.1/image.qcow2' },
  });
  const undeploying = { ...deployed, provision_state: 'deleting', target_provision_state: 'available' };
  const endedAvailable = { uuid: NODE_UUID, provision_state: 'available', target_provision_state: null, power_state: 'power off', last_error: null };

  it('confirms an undeploy that ended in available, with the instance fields its tear down emptied', () => {
    const { clock, changes, readAtMs } = start();
    changes.provisionAccepted(undeploying, 'undeploy', readAtMs);
    changes.listed({ ...endedAvailable, provision_state: 'cleaning', target_provision_state: 'available' }, clock.now());
    expect(changes.take(NODE_UUID)).toBeUndefined();

    changes.listed(endedAvailable, clock.now());
    expect(changes.take(NODE_UUID)).toEqual({ ...deployed, ...endedAvailable, instance_uuid: null, instance_info: {}, reservation: null });
  });

  it('leaves an operation that ended elsewhere than asked to a read', () => {
    const { clock, changes, readAtMs } = start();
    changes.provisionAccepted({ ...deployed, provision_state: 'cleaning', target_provision_state: 'available' }, 'provide', readAtMs);
    changes.listed({ ...endedAvailable, provision_state: 'clean failed', last_error: 'the disk would not erase' }, clock.now());
    changes.listed(endedAvailable, clock.now());

    expect(changes.take(NODE_UUID)).toBeUndefined();
  });

  it('follows only operations whose end is known: not inspection, which rewrites the properties', () => {
    const { clock, changes, readAtMs } = start();
    changes.provisionAccepted({ ...deployed, provision_state: 'inspecting', target_provision_state: 'manageable' }, 'inspect', readAtMs);
    changes.listed({ ...endedAvailable, provision_state: 'manageable' }, clock.now());

    expect(changes.take(NODE_UUID)).toBeUndefined();
  });

  it('lets a later request replace an earlier one', () => {
    const { clock, changes, readAtMs } = start();
    changes.provisionAccepted(undeploying, 'undeploy', readAtMs);
    changes.powerAccepted(deployed, 'power off', readAtMs);
    changes.listed({ ...endedAvailable, provision_state: 'active' }, clock.now());

    expect(changes.take(NODE_UUID)).toMatchObject({ provision_state: 'active', power_state: 'power off', instance_uuid: 'instance-1' });
  });
});
