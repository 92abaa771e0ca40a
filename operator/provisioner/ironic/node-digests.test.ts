import { describe, expect, it } from '@jest/globals';
import { NODE_UUID, makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import { FakeClock } from '../../runtime/testing/fake-clock.ts';
import { runningAfterRequest } from './node-digests.ts';
import { HOST, NODE_PATH, startKit } from './testing/ironic-test-kit.ts';

useNock();

const uuidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const watched = (uuid: string, overrides: Record<string, unknown> = {}) => ({
  uuid, name: null, power_state: 'power on', target_power_state: null, provision_state: 'active', target_provision_state: null,
  maintenance: false, fault: null, last_error: null, health: 'OK', links: [], ...overrides,
});

describe('nodeDigests', () => {
  it('gives a node read by a host the digest the list gives the same node, with the time of the read', async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock } });
    const node = makeNode({ provision_state: 'inspect wait', power_state: 'power on', last_error: null });
    kit.ironic.get(NODE_PATH).reply(200, node);
    const listed = Object.fromEntries(Object.entries(node).filter(([key]) => ['uuid', 'name', 'power_state', 'target_power_state', 'provision_state', 'target_provision_state', 'maintenance', 'fault', 'last_error', 'health'].includes(key)));
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed] });

    expect(kit.provisioner.lastNodeRead(NODE_UUID)).toBeUndefined();
    await clock.advance(5_000);
    await kit.provisioner.hardwareState({ host: HOST });
    const read = kit.provisioner.lastNodeRead(NODE_UUID);
    const digests = await kit.provisioner.nodeDigests();

    expect(read).toEqual({ digest: digests.get(NODE_UUID), atMs: clock.now() });
  });

  it('after a request that starts an operation, gives the node the digest the list gives while it runs, so that wakes no one', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable', target_provision_state: null, power_state: 'power off' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    const running = watched(NODE_UUID, { provision_state: 'inspect wait', target_provision_state: 'manageable', power_state: 'power on' });
    const ended = watched(NODE_UUID, { provision_state: 'manageable', power_state: 'power off' });
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [running] });
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [ended] });

    const result = await kit.provisioner.inspect({ host: HOST, mode: 'agent', retryAfterFailure: false, refresh: false, bootMode: 'UEFI', architecture: 'x86_64' });
    const expected = kit.provisioner.lastNodeRead(NODE_UUID)?.digest;

    expect(result).toMatchObject({ kind: 'busy', started: true, awaitsNodeChange: true });
    expect((await kit.provisioner.nodeDigests()).get(NODE_UUID)).toBe(expected);
    expect((await kit.provisioner.nodeDigests()).get(NODE_UUID)).not.toBe(expected);
  });

  it('lists every node once, following pages, with only the watched fields and the name, health included from 1.109', async () => {
    const kit = await startKit();
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [watched(uuidOf(1)), watched(uuidOf(2))], next: `http://ironic.test/v1/nodes?marker=${uuidOf(2)}&limit=2` });
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [watched(uuidOf(3), { power_state: 'power off' })] });

    const digests = await kit.provisioner.nodeDigests!();

    expect([...digests.keys()]).toEqual([uuidOf(1), uuidOf(2), uuidOf(3)]);
    expect(digests.get(uuidOf(1))).toBe(digests.get(uuidOf(2)));
    expect(digests.get(uuidOf(3))).not.toBe(digests.get(uuidOf(1)));
    expect(kit.requests).toHaveLength(2);
    const fields = new URL(`http://x${kit.requests[0]!.path}`).searchParams.get('fields')!.split(',');
    expect(fields.sort()).toEqual(['fault', 'health', 'last_error', 'maintenance', 'name', 'power_state', 'provision_state', 'target_power_state', 'target_provision_state', 'uuid']);
    expect(kit.requests[1]!.path).toContain(`marker=${uuidOf(2)}`);
  });

  it('does not ask for health below API 1.109, where Ironic would refuse the field', async () => {
    const kit = await startKit({ serverMax: '1.95' });
    const { health: _health, ...older } = watched(uuidOf(1));
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [older] });

    await kit.provisioner.nodeDigests!();

    expect(new URL(`http://x${kit.requests[0]!.path}`).searchParams.get('fields')).not.toContain('health');
  });

  it('a change in maintenance, fault or last error changes the digest', async () => {
    const kit = await startKit();
    kit.ironic.get('/v1/nodes').query(true).reply(200, {
      nodes: [watched(uuidOf(1)), watched(uuidOf(2), { maintenance: true }), watched(uuidOf(3), { fault: 'power failure' }), watched(uuidOf(4), { last_error: 'Redfish connection failed' })],
    });

    const digests = await kit.provisioner.nodeDigests!();

    expect(new Set(digests.values()).size).toBe(4);
  });

  it('within one Ironic operation, its wait half and its power actions change no digest; its end does', async () => {
    const kit = await startKit();
    const cleaning = (overrides: Record<string, unknown>) => watched(uuidOf(1), { provision_state: 'cleaning', target_provision_state: 'available', ...overrides });
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [
      cleaning({ power_state: 'power off' }), { ...cleaning({ provision_state: 'clean wait', target_power_state: 'power on' }), uuid: uuidOf(2) },
      { ...watched(uuidOf(3), { provision_state: 'available', power_state: 'power off' }) },
      { ...watched(uuidOf(4), { provision_state: 'available', power_state: 'power on' }) },
      { ...cleaning({ provision_state: 'deleting' }), uuid: uuidOf(5) },
    ] });

    const digests = await kit.provisioner.nodeDigests!();

    expect(digests.get(uuidOf(1))).toBe(digests.get(uuidOf(2)));
    // Undeploy's deleting runs into its cleaning: one operation.
    expect(digests.get(uuidOf(5))).toBe(digests.get(uuidOf(1)));
    expect(digests.get(uuidOf(3))).not.toBe(digests.get(uuidOf(1)));
    // At rest, power is what a host mirrors: a change wakes it.
    expect(digests.get(uuidOf(3))).not.toBe(digests.get(uuidOf(4)));
  });
});

describe('runningAfterRequest', () => {
  it('foretells an operation started from rest, and nothing for a node in transition, at fault or in maintenance', () => {
    expect(runningAfterRequest(makeNode({ provision_state: 'enroll' }), 'manage')).toMatchObject({ provision_state: 'verifying', target_provision_state: 'manageable' });
    expect(runningAfterRequest(makeNode({ provision_state: 'available' }), 'deploy')).toMatchObject({ provision_state: 'deploying', target_provision_state: 'active' });
    expect(runningAfterRequest(makeNode({ provision_state: 'active' }), 'undeploy')).toMatchObject({ provision_state: 'deleting', target_provision_state: 'available' });
    expect(runningAfterRequest(makeNode({ provision_state: 'deploy failed' }), 'undeploy')).toBeUndefined();
    // manage out of a failed state ends at once: no operation to foretell.
    expect(runningAfterRequest(makeNode({ provision_state: 'inspect failed' }), 'manage')).toBeUndefined();
    expect(runningAfterRequest(makeNode({ provision_state: 'manageable', target_provision_state: 'available' }), 'inspect')).toBeUndefined();
    expect(runningAfterRequest(makeNode({ provision_state: 'manageable', fault: 'power failure' }), 'inspect')).toBeUndefined();
    expect(runningAfterRequest(makeNode({ provision_state: 'manageable', maintenance: true }), 'inspect')).toBeUndefined();
    expect(runningAfterRequest(makeNode({ provision_state: 'inspect wait' }), 'abort')).toBeUndefined();
  });
});
