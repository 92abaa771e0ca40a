import { describe, expect, it } from '@jest/globals';
import { holdsProvisioningSlot } from './capacity.ts';
import { ProvisioningSlots } from './provisioning-slots.ts';

const storedHost = (state: string, options: { operationalStatus?: string; address?: string } = {}) => ({
  metadata: { namespace: 'ns', name: 'h' },
  spec: { bmc: { address: options.address ?? 'redfish://127.0.0.1:8000/redfish/v1/Systems/1' } },
  status: { operationalStatus: options.operationalStatus ?? 'OK', provisioning: { state } },
});

describe('ProvisioningSlots', () => {
  it('lets no more than the limit in, counting stored holders and hosts let in whose status is not saved yet', () => {
    const slots = new ProvisioningSlots({ limit: 3 });
    slots.observe('ns/busy', true);
    slots.observe('ns/idle', false);
    expect(slots.take('ns/a')).toBe(true);
    expect(slots.take('ns/b')).toBe(true);
    // Two passes in flight plus one stored holder: the limit is reached even though
    // neither pass has written its state yet (the overshoot the old Ironic count had).
    expect(slots.take('ns/c')).toBe(false);
    // A holder keeps its slot on every re-check.
    expect(slots.take('ns/busy')).toBe(true);
    expect(slots.take('ns/a')).toBe(true);
    expect(slots.held).toBe(3);
  });

  it('frees a slot once the pass is settled and the stored state no longer holds it', () => {
    const slots = new ProvisioningSlots({ limit: 1 });
    expect(slots.take('ns/a')).toBe(true);
    expect(slots.take('ns/b')).toBe(false);
    // a saved its new state (say inspecting): it holds the slot through its stored status now.
    slots.observe('ns/a', true);
    slots.settle('ns/a');
    expect(slots.take('ns/b')).toBe(false);
    // a finished inspecting.
    slots.observe('ns/a', false);
    expect(slots.take('ns/b')).toBe(true);
  });

  it('frees a slot taken by a pass that failed before saving, and the slot of a deleted host', () => {
    const slots = new ProvisioningSlots({ limit: 1 });
    expect(slots.take('ns/a')).toBe(true);
    slots.settle('ns/a');
    expect(slots.take('ns/b')).toBe(true);
    slots.observe('ns/b', true);
    slots.settle('ns/b');
    slots.forget('ns/b');
    expect(slots.held).toBe(0);
  });

  it('keeps nothing for hosts that hold no slot, so 10,000 idle hosts cost nothing per check', () => {
    const slots = new ProvisioningSlots({ limit: 20 });
    for (let i = 0; i < 10_000; i++) slots.observe(`ns/h${i}`, i < 5);
    expect(slots.held).toBe(5);
    expect(slots.take('ns/new')).toBe(true);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new ProvisioningSlots({ limit: 0 })).toThrow('PROVISIONING_LIMIT must be a positive integer, got 0');
  });
});

describe('holdsProvisioningSlot', () => {
  it.each([
    ['inspecting', {}, true],
    ['provisioning', {}, true],
    ['deprovisioning', {}, true],
    ['preparing', {}, false],
    ['available', {}, false],
    ['provisioned', {}, false],
    // Waiting for a slot is not holding one.
    ['provisioning', { operationalStatus: 'delayed' }, false],
    // Virtual media needs no provisioning network.
    ['provisioning', { address: 'redfish-virtualmedia://127.0.0.1:8000/redfish/v1/Systems/1' }, false],
    ['inspecting', { address: 'ipmi://127.0.0.1:6230' }, true],
  ])('%s %j -> %s', (state, options, expected) => {
    expect(holdsProvisioningSlot(storedHost(state, options))).toBe(expected);
  });
});
