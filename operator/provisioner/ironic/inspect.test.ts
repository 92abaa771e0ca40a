import { describe, expect, it } from '@jest/globals';
import { ironicError, makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import { virtualMachineInventory } from '../../hardware/testdata/inventories.ts';
import type { InspectOptions } from '../provisioner.ts';
import { TransientProvisionerError } from '../result.ts';
import { HOST, NODE_PATH, redfishBmc, startKit } from './testing/ironic-test-kit.ts';

useNock();

const options = (overrides: Partial<InspectOptions> = {}): InspectOptions => ({
  host: HOST,
  mode: 'agent',
  retryAfterFailure: false,
  refresh: false,
  bootMode: 'UEFI',
  architecture: 'x86_64',
  ...overrides,
});
const inspected = { inspection_finished_at: '2026-08-20T10:10:00+00:00' };

describe('inspect', () => {
  it('starts agent inspection on a node never inspected, without asking for an inventory', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode());
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    const result = await kit.provisioner.inspect(options());

    expect(result).toMatchObject({ kind: 'busy', afterMs: 3000, started: true });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision inspect`]);
  });

  it('leaves the wait for a started inspection to the node list, unless a forced reboot needs to see its wait state', async () => {
    const watched = await startKit();
    watched.ironic.get(NODE_PATH).reply(200, makeNode());
    watched.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    expect(await watched.provisioner.inspect(options())).toMatchObject({ awaitsNodeChange: true });

    const rebooting = await startKit();
    rebooting.ironic.get(NODE_PATH).reply(200, makeNode());
    rebooting.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    expect(await rebooting.provisioner.inspect(options({ forceReboot: true }))).not.toHaveProperty('awaitsNodeChange');
  });

  it('returns the hardware once inspection finished', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode(inspected));
    kit.ironic.get(`${NODE_PATH}/inventory`).reply(200, virtualMachineInventory);

    const result = await kit.provisioner.inspect(options());

    expect(result.kind).toBe('done');
    if (result.kind !== 'done') return;
    expect(result.value.hardware).toMatchObject({ ramMebibytes: 16384, cpu: { arch: 'x86_64', count: 2 }, hostname: 'localhost.localdomain' });
    expect(result.value.hardware.nics?.map((nic) => nic.mac)).toContain('00:ee:d0:b8:47:7e');
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}/inventory`]);
  });

  it('starts inspection when Ironic has no inventory', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode(inspected));
    kit.ironic.get(`${NODE_PATH}/inventory`).reply(404, ironicError('Inventory not recorded'));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    const result = await kit.provisioner.inspect(options());

    expect(result).toMatchObject({ kind: 'busy', started: true });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}/inventory`, `PUT ${NODE_PATH}/states/provision inspect`]);
  });

  it('re-inspects on refresh even with an inventory', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode(inspected));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.inspect(options({ refresh: true }));

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision inspect`]);
  });

  it('moves an available node back to manageable first', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'available' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    // Not the start of inspection: a refresh request must survive until inspection starts.
    expect(await kit.provisioner.inspect(options({ refresh: true }))).not.toHaveProperty('started');
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision manage`]);
  });

  it('polls every 10 s during agent inspection and every 3 s during fast inspection', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'inspect wait', target_provision_state: 'manageable' }));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'inspecting', target_provision_state: 'manageable' }));

    expect(await kit.provisioner.inspect(options())).toMatchObject({ kind: 'busy', afterMs: 10_000, awaitsNodeChange: true });
    expect(await kit.provisioner.inspect(options({ mode: 'fast' }))).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}`]);
  });

  it('waits on its own polls for inspect wait when a forced reboot is to abort there (the node list shows no change)', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'inspecting', target_provision_state: 'manageable' }));
    const result = await kit.provisioner.inspect(options({ forceReboot: true }));
    expect(result).toMatchObject({ kind: 'busy', afterMs: 10_000 });
    expect(result).not.toHaveProperty('awaitsNodeChange');
  });

  it('takes its poll intervals from the options', async () => {
    const kit = await startKit({ provisioner: { pollIntervals: { longMs: 2000 } } });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'inspect wait' }));
    expect(await kit.provisioner.inspect(options())).toMatchObject({ kind: 'busy', afterMs: 2000 });
  });

  it('aborts a waiting inspection to force a reboot', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'inspect wait' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    const result = await kit.provisioner.inspect(options({ forceReboot: true }));

    expect(result).toMatchObject({ kind: 'busy', started: true });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision abort`]);
  });

  it("reports Ironic's error when inspection failed, and retries after the failure was recorded", async () => {
    const kit = await startKit();
    const failedNode = makeNode({ provision_state: 'inspect failed', last_error: 'Timeout reached while inspecting the node' });
    kit.ironic.get(NODE_PATH).times(2).reply(200, failedNode);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.inspect(options())).toEqual({ kind: 'failed', message: 'Timeout reached while inspecting the node' });
    expect(await kit.provisioner.inspect(options({ retryAfterFailure: true }))).toMatchObject({ kind: 'busy', started: true });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision inspect`]);
  });

  it('silently restarts an inspection that was aborted on purpose', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'inspect failed', last_error: 'Inspection was aborted by request.' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.inspect(options())).toMatchObject({ kind: 'busy', started: true });
  });

  it('switches to the BMC inspect interface for fast inspection', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ properties: {} }));
    kit.ironic.patch(NODE_PATH).reply(200, makeNode({ inspect_interface: 'redfish' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.inspect(options({ mode: 'fast', bmc: redfishBmc() }));

    expect(kit.calls()).toEqual([
      `GET ${NODE_PATH}`,
      `PATCH ${NODE_PATH} add /properties/capabilities, add /properties/cpu_arch, add /inspect_interface`,
      `PUT ${NODE_PATH}/states/provision inspect`,
    ]);
  });

  it('needs registration when the node is gone', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(404, ironicError('not found'));
    await expect(kit.provisioner.inspect(options())).rejects.toMatchObject({ name: 'NeedsRegistrationError' });
  });

  it('is transient when Ironic is unavailable', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).times(3).reply(503, ironicError('No free conductor workers available', 'Server'));
    await expect(kit.provisioner.inspect(options())).rejects.toBeInstanceOf(TransientProvisionerError);
  });
});

describe('firmware refreshes seen through inspection', () => {
  it('counts a refresh of the firmware components, not of the BIOS, once inspection is seen to end', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode());
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'inspect wait', target_provision_state: 'manageable', provision_updated_at: '2026-08-20T10:06:00+00:00' }));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ ...inspected, provision_updated_at: '2026-08-20T10:10:00+00:00' }));
    kit.ironic.get(`${NODE_PATH}/inventory`).reply(200, virtualMachineInventory);

    await kit.provisioner.inspect(options());
    expect(kit.provisioner.firmwareRefreshes({ host: HOST })).toEqual({ pending: ['firmware'] });
    expect((await kit.provisioner.inspect(options())).kind).toBe('busy');
    expect(kit.provisioner.firmwareRefreshes({ host: HOST })).toEqual({ pending: ['firmware'] });
    expect((await kit.provisioner.inspect(options())).kind).toBe('done');

    const refreshes = kit.provisioner.firmwareRefreshes({ host: HOST });
    expect(refreshes.firmware).toBeDefined();
    expect(refreshes.bios).toBeUndefined();
    expect(refreshes.pending).toBeUndefined();
  });
});

