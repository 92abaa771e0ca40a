import { describe, expect, it } from '@jest/globals';
import { ironicError, lockedError, makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import type { PowerOptions } from '../provisioner.ts';
import { TransientProvisionerError } from '../result.ts';
import { SOFT_POWER_OFF_ENDED_ON } from './power.ts';
import { HOST, NODE_PATH, startKit } from './testing/ironic-test-kit.ts';

useNock();

const options = (overrides: Partial<PowerOptions> = {}): PowerOptions => ({ host: HOST, mode: 'soft', force: false, ...overrides });

describe('power on', () => {
  it('asks Ironic to power on, then is busy until it reports power on', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power off' }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power off', target_power_state: 'power on' }));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on' }));

    expect(await kit.provisioner.powerOn(options())).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(await kit.provisioner.powerOn(options())).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(await kit.provisioner.powerOn(options())).toEqual({ kind: 'done', value: undefined });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/power power on`, `GET ${NODE_PATH}`, `GET ${NODE_PATH}`]);
  });

  it('reports an earlier power failure unless forced', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ last_error: 'Redfish exception: BMC busy' }));
    expect(await kit.provisioner.powerOn(options())).toEqual({ kind: 'failed', message: 'PowerOn operation failed: Redfish exception: BMC busy' });
  });

  it('waits while a provision operation runs', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'cleaning', target_provision_state: 'available' }));
    expect(await kit.provisioner.powerOn(options())).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });

  it('waits while a conductor holds the node\'s lock, without asking', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power off', reservation: 'conductor-1' }));
    expect(await kit.provisioner.powerOn(options())).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });

  it('throws a transient error when the node is locked', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode());
    kit.ironic.put(`${NODE_PATH}/states/power`).times(3).reply(409, lockedError());
    await expect(kit.provisioner.powerOn(options())).rejects.toBeInstanceOf(TransientProvisionerError);
  });
});

describe('power off', () => {
  it('powers off softly with a 180 s timeout', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on' }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);

    expect(await kit.provisioner.powerOff(options())).toMatchObject({ kind: 'busy' });
    expect(kit.requests[1]?.body).toEqual({ target: 'soft power off', timeout: 180 });
  });

  it('falls back to a hard power off when the BMC refuses a soft one', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on' }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(400, ironicError('soft power off is not supported'));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);

    await kit.provisioner.powerOff(options());

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/power soft power off`, `PUT ${NODE_PATH}/states/power power off`]);
  });

  it('powers off hard when asked to', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on' }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);
    await kit.provisioner.powerOff(options({ mode: 'hard' }));
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/power power off`]);
  });

  it('reboots instead when the node must never be powered off', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on', disable_power_off: true }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);
    await kit.provisioner.powerOff(options());
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/power soft rebooting`]);
  });

  it('aborts a waiting inspection before powering off', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on', provision_state: 'inspect wait', target_provision_state: 'manageable' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.powerOff(options({ force: true, mode: 'hard' }))).toMatchObject({ kind: 'busy' });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision abort`]);
  });

  it('aborts automated cleaning only when cleaning is disabled', async () => {
    const kit = await startKit();
    const cleaning = makeNode({ power_state: 'power on', provision_state: 'clean wait', target_provision_state: 'available' });
    kit.ironic.get(NODE_PATH).times(2).reply(200, cleaning);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.powerOff(options({ automatedCleaningMode: 'metadata' }))).toMatchObject({ kind: 'busy', afterMs: 10_000 });
    expect(await kit.provisioner.powerOff(options({ automatedCleaningMode: 'disabled' }))).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision abort`]);
  });

  it('manages a node left in inspect failed by an abort, then powers it off', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on', provision_state: 'inspect failed', target_provision_state: 'manageable', last_error: 'inspection aborted' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on', provision_state: 'manageable', last_error: 'inspection aborted' }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);

    await kit.provisioner.powerOff(options());
    await kit.provisioner.powerOff(options());

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision manage`, `GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/power soft power off`]);
  });

  it('reports a failed power off unless forced', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on', last_error: 'Failed to set power state' }));
    expect(await kit.provisioner.powerOff(options())).toEqual({ kind: 'failed', message: 'Failed to set power state' });
  });

  it('is done when already off', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power off' }));
    expect(await kit.provisioner.powerOff(options())).toEqual({ kind: 'done', value: undefined });
  });

  it('reports its soft power off as failed when it ended with the node on, even once Ironic\'s power sync cleared the error', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on' }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on', target_power_state: 'soft power off' }));
    // Timed out in Ironic, and its power sync found the power matching its record: no error left.
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on', last_error: null }));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on', last_error: null }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);

    expect(await kit.provisioner.powerOff(options())).toMatchObject({ kind: 'busy', started: true });
    expect(await kit.provisioner.powerOff(options())).toMatchObject({ kind: 'busy' });
    expect(await kit.provisioner.powerOff(options())).toEqual({ kind: 'failed', message: SOFT_POWER_OFF_ENDED_ON });
    // Reported once: the retry after the backoff (forced, as the host's error makes it) goes hard.
    expect(await kit.provisioner.powerOff(options({ force: true }))).toMatchObject({ kind: 'busy', started: true });
    expect(kit.calls().filter((call) => call.startsWith('PUT'))).toEqual([`PUT ${NODE_PATH}/states/power soft power off`, `PUT ${NODE_PATH}/states/power power off`]);
  });

  it('forgets its soft power off when the host wants power again', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on' }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on' }));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on' }));
    kit.ironic.put(`${NODE_PATH}/states/power`).reply(202);

    expect(await kit.provisioner.powerOff(options())).toMatchObject({ kind: 'busy', started: true });
    expect(await kit.provisioner.powerOn(options())).toEqual({ kind: 'done', value: undefined });
    // A later soft power off is a new request, not the old one's failure.
    expect(await kit.provisioner.powerOff(options())).toMatchObject({ kind: 'busy', started: true });
  });
});

describe('hardware state', () => {
  it('reads the power state from the node', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: 'power on' }));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ power_state: null }));
    expect(await kit.provisioner.hardwareState({ host: HOST })).toEqual({ poweredOn: true });
    expect(await kit.provisioner.hardwareState({ host: HOST })).toEqual({});
  });
});
