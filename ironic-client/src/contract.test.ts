import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { IronicContractError } from './errors.ts';
import { makeNode, makePort, NODE_UUID } from '../test-support/fixtures.ts';
import { connectTestClient, ironic } from '../test-support/ironic-mock.ts';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});

async function failure(promise: Promise<unknown>): Promise<IronicContractError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(IronicContractError);
  return error as IronicContractError;
}

describe('response contract', () => {
  it('names a field with the wrong type', async () => {
    const { client } = await connectTestClient();
    ironic().get(`/v1/nodes/${NODE_UUID}`).reply(200, { ...makeNode(), provision_state: 42 });
    const error = await failure(client.nodes.get(NODE_UUID));
    expect(error.field).toBe('provision_state');
    expect(error.kind).toBe('contract');
    expect(error.transient).toBe(false);
    expect(error.message).toMatch(/^Unexpected Ironic response to GET \/v1\/nodes\/\{node_ident\}: field provision_state: .*expected string/);
  });

  it('names a missing field', async () => {
    const { client } = await connectTestClient();
    const { maintenance: _dropped, ...node } = makeNode();
    ironic().post('/v1/nodes').reply(201, node);
    expect((await failure(client.nodes.create({ driver: 'redfish' }))).field).toBe('maintenance');
  });

  it('points into lists', async () => {
    const { client } = await connectTestClient();
    const good = { uuid: NODE_UUID, provision_state: 'available', links: [] };
    const bad = { uuid: 'not-a-uuid', provision_state: 'available', links: [] };
    ironic().get('/v1/nodes').query({ fields: 'uuid,provision_state' }).reply(200, { nodes: [good, bad] });
    const error = await failure(client.nodes.list({ fields: ['uuid', 'provision_state'] }));
    expect(error.field).toBe('nodes[1].uuid');
  });

  it('checks only the fields that were asked for, and lets unknown fields through', async () => {
    const { client } = await connectTestClient();
    ironic()
      .get(`/v1/nodes/${NODE_UUID}`)
      .query({ fields: 'power_state' })
      .reply(200, { power_state: 'power on', links: [], some_future_field: { nested: true } });
    const node = await client.nodes.get(NODE_UUID, { fields: ['power_state'] });
    expect(node).toEqual({ power_state: 'power on', links: [], some_future_field: { nested: true } });
  });

  it('rejects null where Ironic always sends a value', async () => {
    const { client } = await connectTestClient();
    ironic().get(`/v1/nodes/${NODE_UUID}`).reply(200, { ...makeNode(), driver_info: null });
    expect((await failure(client.nodes.get(NODE_UUID))).field).toBe('driver_info');
  });

  it('checks ports too', async () => {
    const { client } = await connectTestClient();
    ironic().post('/v1/ports').reply(201, { ...makePort(), address: null });
    expect((await failure(client.ports.create({ address: '52:54:00:12:34:56', node_uuid: NODE_UUID }))).field).toBe('address');
  });

  it('checks the version document during discovery', async () => {
    nock('http://ironic.test:6385').get('/v1').reply(200, { id: 'v1', version: { min_version: '1.1', version: 115 } });
    const { connectIronic } = await import('./client.ts');
    const error = await failure(connectIronic({ endpoint: 'http://ironic.test:6385' }));
    expect(error.field).toBe('version.version');
  });
});
