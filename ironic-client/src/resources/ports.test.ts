import { describe, expect, it } from '@jest/globals';
import { IronicConflictError } from '../errors.ts';
import { ironicError, makePort, NODE_UUID, PORT_UUID } from '../../test-support/fixtures.ts';
import { connectTestClient, ironic } from '../../test-support/ironic-mock.ts';
import { useNock } from '../../test-support/nock-lifecycle.ts';

useNock();

describe('ports', () => {
  it('finds a port by MAC address with chosen fields', async () => {
    const { client } = await connectTestClient();
    ironic()
      .get('/v1/ports')
      .query({ address: '52:54:00:12:34:56', fields: 'uuid,node_uuid,address' })
      .reply(200, { ports: [{ uuid: PORT_UUID, node_uuid: NODE_UUID, address: '52:54:00:12:34:56', links: [] }] });
    const page = await client.ports.list({ address: '52:54:00:12:34:56', fields: ['uuid', 'node_uuid', 'address'] });
    expect(page.items[0]?.node_uuid).toBe(NODE_UUID);
  });

  it('lists by node through the query, with default fields', async () => {
    const { client } = await connectTestClient();
    ironic()
      .get('/v1/ports')
      .query({ node: 'metal3~worker-0' })
      .reply(200, { ports: [{ uuid: PORT_UUID, address: '52:54:00:12:34:56', links: [] }] });
    expect((await client.ports.listAll({ node: 'metal3~worker-0' })).map((port) => port.address)).toEqual(['52:54:00:12:34:56']);
  });

  it('lists ports in detail by node UUID', async () => {
    const { client } = await connectTestClient();
    ironic().get('/v1/ports').query({ node_uuid: NODE_UUID, detail: 'true' }).reply(200, { ports: [makePort()] });
    expect((await client.ports.list({ nodeUuid: NODE_UUID, detail: true })).items[0]?.pxe_enabled).toBe(true);
  });

  it('lists a node\'s ports through /v1/nodes/{node}/ports', async () => {
    const { client } = await connectTestClient();
    ironic().get(`/v1/nodes/${NODE_UUID}/ports`).query({ detail: 'true' }).reply(200, { ports: [makePort()] });
    expect(await client.ports.listByNode(NODE_UUID, { detail: true })).toEqual([makePort()]);
  });

  it('creates a port', async () => {
    const { client } = await connectTestClient();
    const body = { address: '52:54:00:12:34:56', node_uuid: NODE_UUID, pxe_enabled: true };
    ironic().post('/v1/ports', body).reply(201, makePort());
    expect((await client.ports.create(body)).uuid).toBe(PORT_UUID);
  });

  it('returns a duplicate MAC as a permanent conflict at once', async () => {
    const { client } = await connectTestClient();
    ironic().post('/v1/ports').once().reply(409, ironicError('A port with MAC address 52:54:00:12:34:56 already exists.'));
    const error = await client.ports.create({ address: '52:54:00:12:34:56', node_uuid: NODE_UUID }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IronicConflictError);
    expect((error as IronicConflictError).locked).toBe(false);
  });

  it('deletes a port', async () => {
    const { client } = await connectTestClient();
    ironic().delete(`/v1/ports/${PORT_UUID}`).reply(204);
    await client.ports.delete(PORT_UUID);
  });
});
