import { describe, expect, it } from '@jest/globals';
import { IronicNotFoundError, IronicVersionUnsupportedError } from '../errors.ts';
import { makeNode, NODE_UUID } from '../../test-support/fixtures.ts';
import { connectTestClient, ironic } from '../../test-support/ironic-mock.ts';
import { useNock } from '../../test-support/nock-lifecycle.ts';

useNock();

const OTHER_UUID = '0f6d2a5e-97c5-4c55-8a55-1e2b3c4d5e6f';
const defaultItem = (uuid: string) => ({
  uuid,
  name: null,
  instance_uuid: null,
  power_state: 'power off',
  provision_state: 'enroll',
  maintenance: false,
  links: [],
});

describe('nodes: list', () => {
  it('lists a page with Ironic default fields', async () => {
    const { client } = await connectTestClient();
    ironic().get('/v1/nodes').reply(200, { nodes: [defaultItem(NODE_UUID)] });
    const page = await client.nodes.list();
    expect(page.items[0]?.provision_state).toBe('enroll');
    expect(page.nextMarker).toBeUndefined();
  });

  it('sends fields and filters the way Ironic parses them', async () => {
    const { client } = await connectTestClient();
    ironic()
      .get('/v1/nodes')
      .query({
        fields: 'uuid,name,provision_state,boot_interface',
        provision_state: 'available',
        driver: 'redfish',
        maintenance: 'false',
        associated: 'true',
        resource_class: 'baremetal',
        conductor_group: 'rack1',
        fault: 'power failure',
        owner: 'p1',
        shard: 's1,s2',
        instance_uuid: OTHER_UUID,
        limit: '50',
        sort_key: 'name',
        sort_dir: 'desc',
      })
      .reply(200, { nodes: [{ uuid: NODE_UUID, name: 'metal3~a', provision_state: 'available', boot_interface: 'ipxe', links: [] }] });
    const page = await client.nodes.list({
      fields: ['uuid', 'name', 'provision_state', 'boot_interface'],
      provisionState: 'available',
      driver: 'redfish',
      maintenance: false,
      associated: true,
      resourceClass: 'baremetal',
      conductorGroup: 'rack1',
      fault: 'power failure',
      owner: 'p1',
      shard: ['s1', 's2'],
      instanceUuid: OTHER_UUID,
      limit: 50,
      sortKey: 'name',
      sortDir: 'desc',
    });
    const item = page.items[0];
    expect(item?.boot_interface).toBe('ipxe');
  });

  it('lists full nodes with detail', async () => {
    const { client } = await connectTestClient();
    ironic().get('/v1/nodes').query({ detail: 'true' }).reply(200, { nodes: [makeNode()] });
    const page = await client.nodes.list({ detail: true });
    expect(page.items[0]?.driver_info).toMatchObject({ redfish_address: 'http://bmc.test:8000' });
  });

  it('refuses fields together with detail before sending anything', async () => {
    const { client } = await connectTestClient();
    await expect(client.nodes.list({ fields: ['uuid'], detail: true } as never)).rejects.toThrow(/cannot be combined/);
  });

  it('follows next links by marker across pages', async () => {
    const { client } = await connectTestClient();
    const next = `http://public.example:6385/v1/nodes?fields=uuid,provision_state&limit=1&marker=${NODE_UUID}`;
    ironic()
      .get('/v1/nodes')
      .query({ fields: 'uuid,provision_state', limit: '1' })
      .reply(200, { nodes: [{ uuid: NODE_UUID, provision_state: 'active', links: [] }], next })
      .get('/v1/nodes')
      .query({ fields: 'uuid,provision_state', limit: '1', marker: NODE_UUID })
      .reply(200, { nodes: [{ uuid: OTHER_UUID, provision_state: 'available', links: [] }] });
    const nodes = await client.nodes.listAll({ fields: ['uuid', 'provision_state'], limit: 1 });
    expect(nodes.map((node) => node.uuid)).toEqual([NODE_UUID, OTHER_UUID]);
  });
});

describe('nodes: single node', () => {
  it('gets a node by name', async () => {
    const { client } = await connectTestClient();
    ironic().get('/v1/nodes/metal3~worker-0').reply(200, makeNode());
    const node = await client.nodes.get('metal3~worker-0');
    expect(node.uuid).toBe(NODE_UUID);
    expect(node.health).toBe('OK');
  });

  it('gets only some fields', async () => {
    const { client } = await connectTestClient();
    ironic()
      .get(`/v1/nodes/${NODE_UUID}`)
      .query({ fields: 'provision_state,last_error' })
      .reply(200, { provision_state: 'deploy failed', last_error: 'boom', links: [] });
    const node = await client.nodes.get(NODE_UUID, { fields: ['provision_state', 'last_error'] });
    expect(node).toEqual({ provision_state: 'deploy failed', last_error: 'boom', links: [] });
  });

  it('maps a missing node to IronicNotFoundError', async () => {
    const { client } = await connectTestClient();
    ironic().get('/v1/nodes/nope').reply(404, { error_message: JSON.stringify({ faultstring: 'Node nope could not be found.' }) });
    await expect(client.nodes.get('nope')).rejects.toBeInstanceOf(IronicNotFoundError);
  });

  it('creates a node', async () => {
    const { client } = await connectTestClient();
    const body = {
      name: 'metal3~worker-0',
      driver: 'redfish',
      driver_info: { redfish_address: 'http://bmc.test:8000' },
      boot_interface: 'redfish-virtual-media',
      properties: { cpu_arch: 'x86_64', capabilities: 'boot_mode:uefi' },
      disable_power_off: false,
    };
    ironic().post('/v1/nodes', body).reply(201, makeNode({ provision_state: 'enroll' }));
    const node = await client.nodes.create(body);
    expect(node.provision_state).toBe('enroll');
  });

  it('JSON-patches a node', async () => {
    const { client } = await connectTestClient();
    const patch = [
      { op: 'replace' as const, path: '/driver_info/redfish_address', value: 'http://bmc2.test' },
      { op: 'add' as const, path: '/instance_info/image_source', value: 'http://images/os.img' },
      { op: 'remove' as const, path: '/instance_info/boot_iso' },
    ];
    ironic().patch(`/v1/nodes/${NODE_UUID}`, patch).reply(200, makeNode());
    await client.nodes.update(NODE_UUID, patch);
  });

  it('passes reset_interfaces with a driver change', async () => {
    const { client } = await connectTestClient();
    const patch = [{ op: 'replace' as const, path: '/driver', value: 'ipmi' }];
    ironic().patch(`/v1/nodes/${NODE_UUID}`, patch).query({ reset_interfaces: 'true' }).reply(200, makeNode({ driver: 'ipmi' }));
    expect((await client.nodes.update(NODE_UUID, patch, { resetInterfaces: true })).driver).toBe('ipmi');
  });

  it('refuses disable_power_off below 1.95 before sending anything', async () => {
    const { client } = await connectTestClient({ serverMax: '1.93' });
    await expect(client.nodes.create({ driver: 'redfish', disable_power_off: true })).rejects.toBeInstanceOf(
      IronicVersionUnsupportedError,
    );
    await expect(client.nodes.update(NODE_UUID, [{ op: 'add', path: '/disable_power_off', value: true }])).rejects.toThrow(
      'disable_power_off needs Ironic API 1.95, but the client negotiated 1.93',
    );
  });

  it('deletes a node', async () => {
    const { client } = await connectTestClient();
    ironic().delete(`/v1/nodes/${NODE_UUID}`).reply(204);
    await expect(client.nodes.delete(NODE_UUID)).resolves.toBeUndefined();
  });

  it('polls the state fields', async () => {
    const { client } = await connectTestClient();
    const states = {
      console_enabled: false,
      last_error: null,
      power_state: 'power on',
      provision_state: 'wait call-back',
      target_power_state: null,
      target_provision_state: 'active',
      provision_updated_at: '2026-08-20T10:05:00',
      raid_config: {},
      target_raid_config: {},
      boot_mode: 'uefi',
      secure_boot: null,
    };
    ironic().get(`/v1/nodes/${NODE_UUID}/states`).reply(200, states);
    expect(await client.nodes.getStates(NODE_UUID)).toEqual(states);
  });

  it('validates the driver interfaces', async () => {
    const { client } = await connectTestClient();
    const validation = {
      boot: { result: true, reason: null },
      deploy: { result: false, reason: 'Missing image_source' },
      console: { result: null, reason: 'not supported' },
    };
    ironic().get(`/v1/nodes/${NODE_UUID}/validate`).reply(200, validation);
    expect(await client.nodes.validate(NODE_UUID)).toEqual(validation);
  });
});
