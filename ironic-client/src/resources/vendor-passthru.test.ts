import { describe, expect, it } from '@jest/globals';
import { IronicContractError } from '../errors.ts';
import { NODE_UUID } from '../../test-support/fixtures.ts';
import { connectTestClient, ironic } from '../../test-support/ironic-mock.ts';
import { useNock } from '../../test-support/nock-lifecycle.ts';

useNock();
const path = `/v1/nodes/${NODE_UUID}/vendor_passthru`;

describe('nodes: vendor passthru', () => {
  it('calls a method with a body and reports sync or async', async () => {
    const { client } = await connectTestClient();
    ironic()
      .post(path, { bar: 'baz' })
      .query({ method: 'first_method' })
      .reply(202)
      .put(path, { x: 1 })
      .query({ method: 'm2' })
      .reply(200, { done: true });
    expect(await client.nodes.callVendorPassthru(NODE_UUID, { method: 'first_method', body: { bar: 'baz' } })).toEqual({
      status: 202,
      data: undefined,
    });
    expect(await client.nodes.callVendorPassthru(NODE_UUID, { method: 'm2', httpMethod: 'PUT', body: { x: 1 } })).toEqual({
      status: 200,
      data: { done: true },
    });
  });

  it('supports GET, PATCH and DELETE, and refuses a body on GET', async () => {
    const { client } = await connectTestClient();
    ironic()
      .get(path)
      .query({ method: 'get_all_subscriptions' })
      .reply(200, [])
      .patch(path)
      .query({ method: 'p' })
      .reply(200, {})
      .delete(path)
      .query({ method: 'd' })
      .reply(200, null);
    expect((await client.nodes.callVendorPassthru(NODE_UUID, { method: 'get_all_subscriptions', httpMethod: 'GET' })).data).toEqual([]);
    await client.nodes.callVendorPassthru(NODE_UUID, { method: 'p', httpMethod: 'PATCH', body: {} });
    await client.nodes.callVendorPassthru(NODE_UUID, { method: 'd', httpMethod: 'DELETE' });
    await expect(client.nodes.callVendorPassthru(NODE_UUID, { method: 'x', httpMethod: 'GET', body: {} })).rejects.toThrow(/takes no body/);
  });

  it('lists vendor methods', async () => {
    const { client } = await connectTestClient();
    const methods = {
      create_subscription: { async: false, attach: false, description: 'Creates a subscription', http_methods: ['POST'], require_exclusive_lock: true },
    };
    ironic().get(`${path}/methods`).reply(200, methods);
    expect(await client.nodes.listVendorPassthruMethods(NODE_UUID)).toEqual(methods);
  });

  it('creates a Redfish event subscription', async () => {
    const { client } = await connectTestClient();
    const subscription = { Id: 'sub-1', Context: 'ctx', Destination: 'https://hooks/events', EventTypes: ['Alert'], Protocol: 'Redfish' };
    ironic()
      .post(path, { Destination: 'https://hooks/events', Context: 'ctx', HttpHeaders: [{ Authorization: 'Bearer t' }] })
      .query({ method: 'create_subscription' })
      .reply(200, subscription);
    const created = await client.nodes.createEventSubscription(NODE_UUID, {
      destination: 'https://hooks/events',
      context: 'ctx',
      httpHeaders: [{ Authorization: 'Bearer t' }],
    });
    expect(created.Id).toBe('sub-1');
  });

  it('insists on the subscription Id', async () => {
    const { client } = await connectTestClient();
    ironic().post(path).query({ method: 'create_subscription' }).reply(200, { Destination: 'x' });
    await expect(client.nodes.createEventSubscription(NODE_UUID, { destination: 'x' })).rejects.toBeInstanceOf(IronicContractError);
  });

  it('deletes a Redfish event subscription with DELETE and its id', async () => {
    const { client } = await connectTestClient();
    ironic().delete(path, { id: 'sub-1' }).query({ method: 'delete_subscription' }).reply(200, null);
    await client.nodes.deleteEventSubscription(NODE_UUID, 'sub-1');
  });
});
