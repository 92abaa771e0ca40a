import { describe, expect, it } from '@jest/globals';
import { NODE_UUID, makeNode, makePort } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import { FakeClock } from '../../runtime/testing/fake-clock.ts';
import { BOOT_MAC, HOST, KERNEL_URL, NODE_PATH, RAMDISK_URL, redfishBmc, startKit } from './testing/ironic-test-kit.ts';

useNock();

const registered = makeNode({
  driver_info: {
    redfish_address: 'http://bmc.test:8000',
    redfish_system_id: '/redfish/v1/Systems/1',
    redfish_username: 'admin',
    redfish_password: '******',
    deploy_kernel: KERNEL_URL,
    deploy_ramdisk: RAMDISK_URL,
  },
});

const registerOptions = {
  host: HOST,
  bmc: redfishBmc(),
  credentials: { username: 'admin', password: 'pw' },
  bootMacAddress: BOOT_MAC,
  bootMode: 'UEFI' as const,
  architecture: 'x86_64',
  credentialsChanged: false,
  retryAfterFailure: false,
  automatedCleaningMode: 'metadata' as const,
  disablePowerOff: false,
  knownMacAddresses: [],
  inspectionDisabled: false,
};

describe('node cache across the calls of one reconcile', () => {
  it('lets register and the state call share one GET, and expires before the next poll', async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000 } });
    kit.ironic.get(NODE_PATH).reply(200, registered);
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
    kit.ironic.get(NODE_PATH).reply(200, registered);

    await kit.provisioner.register(registerOptions);
    expect(await kit.provisioner.hardwareState({ host: HOST })).toEqual({ poweredOn: false });
    await clock.advance(1000);
    await kit.provisioner.hardwareState({ host: HOST });

    expect(kit.calls().filter((call) => call === `GET ${NODE_PATH}`)).toHaveLength(2);
  });

  it('drops the cached node after a write', async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000 } });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'cleaning' }));

    await kit.provisioner.provision({ host: HOST, bootMode: 'UEFI' });
    expect(await kit.provisioner.provision({ host: HOST, bootMode: 'UEFI' })).toMatchObject({ kind: 'busy', afterMs: 10_000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision provide`, `GET ${NODE_PATH}`]);
  });
});

describe('node cache and the node list', () => {
  const listed = (node: ReturnType<typeof makeNode>) => {
    const { uuid, name, power_state, target_power_state, provision_state, target_provision_state, maintenance, fault, last_error } = node;
    return { uuid, name, power_state, target_power_state, provision_state, target_provision_state, maintenance, fault, last_error, health: 'OK', links: [] };
  };

  it('drops a cached node the list shows changed, so the host it wakes reads the change', async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000 } });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power off' }));
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed(makeNode({ power_state: 'power on' }))] });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on' }));

    expect(await kit.provisioner.hardwareState({ host: HOST })).toEqual({ poweredOn: false });
    await kit.provisioner.nodeDigests!();
    expect(await kit.provisioner.hardwareState({ host: HOST })).toEqual({ poweredOn: true });

    expect(kit.calls().filter((call) => call === `GET ${NODE_PATH}`)).toHaveLength(2);
  });

  it('keeps a cached node whose change the list does not wake its host for (power within a cleaning)', async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000 } });
    const cleaning = { provision_state: 'clean wait', target_provision_state: 'available', health: 'OK' };
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ ...cleaning, power_state: 'power off' }));
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed(makeNode({ ...cleaning, provision_state: 'cleaning', power_state: 'power on' }))] });

    await kit.provisioner.hardwareState({ host: HOST });
    await kit.provisioner.nodeDigests!();
    await kit.provisioner.hardwareState({ host: HOST });

    expect(kit.calls().filter((call) => call === `GET ${NODE_PATH}`)).toHaveLength(1);
  });

  it('keeps a cached node the list agrees with', async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000 } });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ health: 'OK' }));
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed(makeNode())] });

    await kit.provisioner.hardwareState({ host: HOST });
    await kit.provisioner.nodeDigests!();
    await kit.provisioner.hardwareState({ host: HOST });

    expect(kit.calls().filter((call) => call === `GET ${NODE_PATH}`)).toHaveLength(1);
  });
});

describe('node cache and a power change the list saw end', () => {
  const listed = (overrides: Record<string, unknown>) => ({
    uuid: makeNode().uuid, name: makeNode().name, target_power_state: null, provision_state: 'active', target_provision_state: null,
    maintenance: false, fault: null, last_error: null, health: 'OK', links: [], ...overrides,
  });

  it('confirms the change from the list, with no read of the node, and the list wakes no one while it runs', async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000, settledCopyMaxAgeMs: 30_000 } });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active', power_state: 'power off', last_error: 'an old failure' }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed({ power_state: 'power off', target_power_state: 'power on' })] });
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed({ power_state: 'power on' })] });

    expect(await kit.provisioner.powerOn({ host: HOST, mode: 'hard', force: true })).toMatchObject({ kind: 'busy', started: true });
    const running = kit.provisioner.lastNodeRead(NODE_UUID)?.digest;
    expect((await kit.provisioner.nodeDigests()).get(NODE_UUID)).toBe(running);
    await clock.advance(3_000);
    expect((await kit.provisioner.nodeDigests()).get(NODE_UUID)).not.toBe(running);
    expect(await kit.provisioner.powerOn({ host: HOST, mode: 'hard', force: false })).toEqual({ kind: 'done' });

    expect(kit.calls().filter((call) => call === `GET ${NODE_PATH}`)).toHaveLength(1);
  });

  it('by default confirms from the list a change whose host waited two minutes in the queue', async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000, settledCopyMaxAgeMs: undefined } });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active', power_state: 'power off' }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed({ power_state: 'power on' })] });

    await kit.provisioner.powerOn({ host: HOST, mode: 'hard', force: false });
    await clock.advance(3_000);
    await kit.provisioner.nodeDigests();
    await clock.advance(120_000);
    expect(await kit.provisioner.powerOn({ host: HOST, mode: 'hard', force: false })).toEqual({ kind: 'done' });

    expect(kit.calls().filter((call) => call === `GET ${NODE_PATH}`)).toHaveLength(1);
  });

  it('reads the node when the list has not shown the change ended, or the read before it is too old', async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000, settledCopyMaxAgeMs: 30_000 } });
    const hard = { host: HOST, mode: 'hard' as const, force: false, automatedCleaningMode: 'disabled' as const };
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active', power_state: 'power on' }));
    kit.ironic.put(`${NODE_PATH}/states/power`).times(2).reply(202);
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed({ power_state: 'power on', target_power_state: 'power off' })] });
    kit.ironic.get(NODE_PATH).times(2).reply(200, makeNode({ provision_state: 'active', power_state: 'power off' }));
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed({ power_state: 'power on' })] });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active', power_state: 'power off', target_power_state: 'power on' }));

    await kit.provisioner.powerOff(hard);
    await kit.provisioner.nodeDigests();
    await clock.advance(3_000);
    expect(await kit.provisioner.powerOff(hard)).toEqual({ kind: 'done' });

    await clock.advance(3_000);
    await kit.provisioner.powerOn(hard);
    await clock.advance(30_001);
    await kit.provisioner.nodeDigests();
    expect(await kit.provisioner.powerOn(hard)).toMatchObject({ kind: 'busy', reason: 'waiting for power on' });

    expect(kit.calls().filter((call) => call === `GET ${NODE_PATH}`)).toHaveLength(4);
  });
});

describe('health', () => {
  it('answers the last health read on the node with no request of its own, past the cache and writes', async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000 } });
    expect(kit.provisioner.health({ host: HOST })).toBeUndefined();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on', health: 'Warning' }));
    await kit.provisioner.hardwareState({ host: HOST });
    await clock.advance(5000);

    expect(kit.provisioner.health({ host: HOST })).toBe('Warning');
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);

    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on', health: 'OK' }));
    await kit.provisioner.hardwareState({ host: HOST });
    expect(kit.provisioner.health({ host: HOST })).toBe('OK');
  });

  it('forgets it, and the digest of the last read, once the node is deleted', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable', health: 'OK' }));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable', health: 'OK' }));
    kit.ironic.delete(NODE_PATH).reply(204);
    await kit.provisioner.hardwareState({ host: HOST });
    expect(kit.provisioner.health({ host: HOST })).toBe('OK');
    expect(kit.provisioner.lastNodeRead(HOST.nodeId!)).toBeDefined();
    await kit.provisioner.delete({ host: HOST });
    expect(kit.provisioner.health({ host: HOST })).toBeUndefined();
    expect(kit.provisioner.lastNodeRead(HOST.nodeId!)).toBeUndefined();
  });
});
