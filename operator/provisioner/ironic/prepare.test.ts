import { describe, expect, it } from '@jest/globals';
import { makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import type { PrepareOptions } from '../provisioner.ts';
import { HOST, NODE_PATH, redfishBmc, startKit } from './testing/ironic-test-kit.ts';

useNock();

const biosSetting = (name: string, value: string) => ({ name, value, links: [], created_at: '2026-01-01T00:00:00+00:00', updated_at: null });

const raid = { hardwareRAIDVolumes: [{ level: '1' as const }] };
const options = (overrides: Partial<PrepareOptions> = {}): PrepareOptions => ({ host: HOST, retryAfterFailure: false, bmc: redfishBmc(), ...overrides });

describe('prepare', () => {
  it('is done at once when there is nothing to change', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    expect(await kit.provisioner.prepare(options({ raid, actualRaid: raid }))).toEqual({ kind: 'done', value: undefined });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });

  it('sets the target RAID configuration and starts manual cleaning', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable', raid_interface: 'redfish' }));
    kit.ironic.get(`${NODE_PATH}/bios`).reply(200, { bios: [biosSetting('ProcVirtualization', 'Disabled')] });
    kit.ironic.put(`${NODE_PATH}/states/raid`).reply(204);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    const result = await kit.provisioner.prepare(options({ raid, firmwareSettings: [{ name: 'ProcVirtualization', value: 'Enabled' }] }));

    expect(result).toMatchObject({ kind: 'busy', started: true });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}/bios`, `PUT ${NODE_PATH}/states/raid`, `PUT ${NODE_PATH}/states/provision clean`]);
    expect(kit.requests[2]?.body).toEqual({ logical_disks: [{ size_gb: 'MAX', raid_level: '1', is_root_volume: true }] });
    expect(kit.requests[3]?.body).toEqual({
      target: 'clean',
      clean_steps: [
        { interface: 'raid', step: 'delete_configuration' },
        { interface: 'raid', step: 'create_configuration' },
        { interface: 'bios', step: 'apply_configuration', args: { settings: [{ name: 'ProcVirtualization', value: 'Enabled' }] } },
      ],
    });
  });

  it('leaves out BIOS settings Ironic already reports, so a finished clean is not started again', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    kit.ironic.get(`${NODE_PATH}/bios`).reply(200, { bios: [biosSetting('ProcTurboMode', 'Disabled'), biosSetting('NumCores', '12')] });

    const result = await kit.provisioner.prepare(options({ firmwareSettings: [{ name: 'ProcTurboMode', value: 'Disabled' }, { name: 'NumCores', value: 12 }] }));

    expect(result).toEqual({ kind: 'done', value: undefined });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}/bios`]);
  });

  it('switches the RAID interface for software RAID', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable', raid_interface: 'redfish' }));
    kit.ironic.patch(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable', raid_interface: 'agent' }));
    kit.ironic.put(`${NODE_PATH}/states/raid`).reply(204);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.prepare(options({ raid: { softwareRAIDVolumes: [{ level: '1', rootVolume: true }] } }));

    expect(kit.calls()).toEqual([
      `GET ${NODE_PATH}`,
      `PATCH ${NODE_PATH} add /raid_interface`,
      `PUT ${NODE_PATH}/states/raid`,
      `PUT ${NODE_PATH}/states/provision clean`,
    ]);
  });

  it('manages an available node that needs manual cleaning', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'available' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.prepare(options({ raid }))).toMatchObject({ kind: 'busy' });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision manage`]);
  });

  it('waits for cleaning, reports its failure, and retries from clean failed', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'clean wait' }));
    kit.ironic.get(NODE_PATH).times(2).reply(200, makeNode({ provision_state: 'clean failed', maintenance: true, fault: 'clean failure', last_error: 'RAID creation failed' }));
    kit.ironic.delete(`${NODE_PATH}/maintenance`).reply(202);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.prepare(options({ raid }))).toMatchObject({ kind: 'busy', afterMs: 10_000, awaitsNodeChange: true });
    expect(await kit.provisioner.prepare(options({ raid }))).toEqual({ kind: 'failed', message: 'RAID creation failed' });
    expect(await kit.provisioner.prepare(options({ raid, retryAfterFailure: true }))).toMatchObject({ kind: 'busy' });
    expect(kit.calls().slice(-2)).toEqual([`DELETE ${NODE_PATH}/maintenance`, `PUT ${NODE_PATH}/states/provision manage`]);
  });

  it('records an impossible RAID layout without calling Ironic again', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    const ipmi = redfishBmc('ipmi://192.0.2.1');
    expect(await kit.provisioner.prepare(options({ raid, bmc: ipmi }))).toEqual({
      kind: 'failed',
      message: "RAID settings are defined, but the node's driver no-raid does not support RAID",
    });
  });
});
