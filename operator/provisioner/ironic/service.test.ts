import { describe, expect, it } from '@jest/globals';
import { makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import type { ServiceOptions } from '../provisioner.ts';
import { HOST, NODE_PATH, startKit } from './testing/ironic-test-kit.ts';

useNock();

const biosSetting = (name: string, value: string) => ({ name, value, links: [], created_at: '2026-01-01T00:00:00+00:00', updated_at: null });
const TURBO_OFF = { name: 'ProcTurboMode', value: 'Disabled' };
const BIOS_UPDATE = { component: 'bios', url: 'http://127.0.0.1/bios.bin' };
const options = (overrides: Partial<ServiceOptions> = {}): ServiceOptions => ({
  host: HOST, hasFirmwareSpec: true, changesPending: true, retryAfterFailure: false, ...overrides,
});

describe('service', () => {
  it('starts servicing an active node with the BIOS and firmware service steps', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active' }));
    kit.ironic.get(`${NODE_PATH}/bios`).reply(200, { bios: [biosSetting('ProcTurboMode', 'Enabled')] });
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    const result = await kit.provisioner.service(options({ firmwareSettings: [TURBO_OFF], firmwareUpdates: [BIOS_UPDATE] }));

    expect(result).toMatchObject({ kind: 'busy', started: true });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}/bios`, `PUT ${NODE_PATH}/states/provision service`]);
    expect(kit.requests[2]?.body).toEqual({
      target: 'service',
      service_steps: [
        { interface: 'bios', step: 'apply_configuration', args: { settings: [TURBO_OFF] } },
        { interface: 'firmware', step: 'update', args: { settings: [BIOS_UPDATE] } },
      ],
    });
  });

  it('is done without servicing when Ironic already reports every setting', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active' }));
    kit.ironic.get(`${NODE_PATH}/bios`).reply(200, { bios: [biosSetting('ProcTurboMode', 'Disabled')] });

    expect(await kit.provisioner.service(options({ firmwareSettings: [TURBO_OFF] }))).toEqual({ kind: 'done', value: undefined });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}/bios`]);
  });

  it('is done once the node is active again with nothing pending', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active' }));

    expect(await kit.provisioner.service(options({ changesPending: false }))).toEqual({ kind: 'done', value: undefined });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });

  it.each(['servicing', 'service wait'])('waits while the node is in %s', async (state) => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: state }));

    expect(await kit.provisioner.service(options({ changesPending: false }))).toMatchObject({ kind: 'busy' });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });

  it.each(['service wait', 'service failed'])('aborts %s when the user withdrew every change', async (state) => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: state }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.service(options({ hasFirmwareSpec: false, changesPending: false }))).toMatchObject({ kind: 'busy', started: true });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision abort`]);
  });

  it("reports a failed service with Ironic's last error until asked to retry", async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'service failed', last_error: 'Redfish BIOS apply_configuration step failed.' }));

    expect(await kit.provisioner.service(options({ changesPending: false }))).toEqual({ kind: 'failed', message: 'Redfish BIOS apply_configuration step failed.' });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });

  it('restarts a failed service on retry, clearing maintenance first', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'service failed', maintenance: true }));
    kit.ironic.delete(`${NODE_PATH}/maintenance`).reply(202);
    expect(await kit.provisioner.service(options({ retryAfterFailure: true, firmwareSettings: [TURBO_OFF] }))).toMatchObject({ kind: 'busy' });

    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'service failed' }));
    kit.ironic.get(`${NODE_PATH}/bios`).reply(200, { bios: [biosSetting('ProcTurboMode', 'Enabled')] });
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    expect(await kit.provisioner.service(options({ retryAfterFailure: true, firmwareSettings: [TURBO_OFF] }))).toMatchObject({ kind: 'busy', started: true });

    expect(kit.calls()).toEqual([
      `GET ${NODE_PATH}`, `DELETE ${NODE_PATH}/maintenance`,
      `GET ${NODE_PATH}`, `GET ${NODE_PATH}/bios`, `PUT ${NODE_PATH}/states/provision service`,
    ]);
  });

  it('treats any other node state as a transient problem', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'deploying' }));
    await expect(kit.provisioner.service(options())).rejects.toThrow('have unexpected ironic node state deploying');
  });
});
