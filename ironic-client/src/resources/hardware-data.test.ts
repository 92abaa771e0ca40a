// Inventory, BIOS settings, firmware components and history.
import { describe, expect, it } from '@jest/globals';
import { IronicNotFoundError } from '../errors.ts';
import { ENDPOINT, ironicError, NODE_UUID } from '../../test-support/fixtures.ts';
import { connectTestClient, ironic } from '../../test-support/ironic-mock.ts';
import { useNock } from '../../test-support/nock-lifecycle.ts';

useNock();

describe('nodes: inventory', () => {
  it('returns inventory and plugin data', async () => {
    const { client } = await connectTestClient();
    const data = {
      inventory: {
        interfaces: [{ name: 'eth0', mac_address: '52:54:00:12:34:56', ipv4_address: '192.168.111.20', has_carrier: true }],
        cpu: { model_name: 'QEMU', count: 2, architecture: 'x86_64', flags: ['vmx'] },
        memory: { total: 4294967296, physical_mb: 4096 },
        disks: [{ name: '/dev/sda', size: 53687091200, rotational: true }],
        system_vendor: { manufacturer: 'QEMU', product_name: 'Standard PC', serial_number: null },
        boot: { current_boot_mode: 'uefi' },
        bmc_address: '192.168.111.1',
        hostname: 'worker-0',
      },
      plugin_data: { root_disk: { name: '/dev/sda' } },
    };
    ironic().get(`/v1/nodes/${NODE_UUID}/inventory`).reply(200, data);
    const result = await client.nodes.getInventory(NODE_UUID);
    expect(result.inventory.cpu?.architecture).toBe('x86_64');
    expect(result.inventory.interfaces?.[0]?.mac_address).toBe('52:54:00:12:34:56');
  });

  it('reports a node without recorded inventory as not found', async () => {
    const { client } = await connectTestClient();
    ironic().get(`/v1/nodes/${NODE_UUID}/inventory`).reply(404, ironicError(`Node inventory record for node ${NODE_UUID} could not be found.`));
    const error = await client.nodes.getInventory(NODE_UUID).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IronicNotFoundError);
    expect((error as IronicNotFoundError).faultstring).toMatch(/inventory record/);
  });
});

describe('nodes: BIOS and firmware', () => {
  const base = { created_at: '2026-08-20T10:00:00+00:00', updated_at: null, links: [] };

  it('lists BIOS settings', async () => {
    const { client } = await connectTestClient();
    ironic().get(`/v1/nodes/${NODE_UUID}/bios`).reply(200, { bios: [{ name: 'ProcTurboMode', value: 'Enabled', ...base }] });
    expect((await client.nodes.listBiosSettings(NODE_UUID))[0]?.value).toBe('Enabled');
  });

  it('lists BIOS settings with registry detail', async () => {
    const { client } = await connectTestClient();
    const setting = {
      name: 'ProcTurboMode',
      value: 'Enabled',
      attribute_type: 'Enumeration',
      allowable_values: ['Enabled', 'Disabled'],
      lower_bound: null,
      upper_bound: null,
      min_length: null,
      max_length: null,
      read_only: false,
      reset_required: true,
      unique: false,
      ...base,
    };
    ironic().get(`/v1/nodes/${NODE_UUID}/bios`).query({ detail: 'true' }).reply(200, { bios: [setting] });
    expect((await client.nodes.listBiosSettings(NODE_UUID, { detail: true }))[0]?.allowable_values).toEqual(['Enabled', 'Disabled']);
  });

  it('lists firmware components', async () => {
    const { client } = await connectTestClient();
    const component = {
      component: 'bmc',
      initial_version: '1.0.0',
      current_version: '1.1.0',
      last_version_flashed: '1.1.0',
      created_at: '2026-08-20T10:00:00+00:00',
      updated_at: null,
    };
    ironic().get(`/v1/nodes/${NODE_UUID}/firmware`).reply(200, { firmware: [component] });
    expect(await client.nodes.listFirmwareComponents(NODE_UUID)).toEqual([component]);
  });
});

describe('nodes: history', () => {
  it('lists events with detail and paging', async () => {
    const { client } = await connectTestClient();
    const event = {
      uuid: '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
      created_at: '2026-08-20T10:00:00+00:00',
      severity: 'ERROR',
      event: 'Deploy failed',
      event_type: 'deploying',
      conductor: 'conductor-0',
      user: null,
      links: [],
    };
    ironic()
      .get(`/v1/nodes/${NODE_UUID}/history`)
      .query({ detail: 'true', limit: '1' })
      .reply(200, { history: [event], next: `${ENDPOINT}/v1/nodes/${NODE_UUID}/history?detail=True&limit=1&marker=${event.uuid}` });
    const page = await client.nodes.listHistory(NODE_UUID, { detail: true, limit: 1 });
    expect(page.items[0]?.event_type).toBe('deploying');
    expect(page.nextMarker).toBe(event.uuid);
  });
});
