import { describe, expect, it } from '@jest/globals';
import { IronicNotFoundError } from '../errors.ts';
import { ironicError, NODE_UUID } from '../../test-support/fixtures.ts';
import { connectTestClient, ironic } from '../../test-support/ironic-mock.ts';
import { useNock } from '../../test-support/nock-lifecycle.ts';

useNock();

const lookupResult = {
  node: { uuid: NODE_UUID, properties: {}, instance_info: {}, driver_internal_info: {}, links: [] },
  config: { agent_token: 'token-1', agent_token_required: true, heartbeat_timeout: 300 },
};

describe('agent endpoints', () => {
  it('looks a node up by MAC addresses', async () => {
    const { client } = await connectTestClient();
    ironic().get('/v1/lookup').query({ addresses: '52:54:00:12:34:56,52:54:00:12:34:57' }).reply(200, lookupResult);
    const result = await client.agent.lookup({ addresses: ['52:54:00:12:34:56', '52:54:00:12:34:57'] });
    expect(result.config.agent_token).toBe('token-1');
  });

  it('looks a node up by UUID, and reports a node outside lookup states as not found', async () => {
    const { client } = await connectTestClient();
    ironic().get('/v1/lookup').query({ node_uuid: NODE_UUID }).reply(404, ironicError('Not found.'));
    await expect(client.agent.lookup({ nodeUuid: NODE_UUID })).rejects.toBeInstanceOf(IronicNotFoundError);
    await expect(client.agent.lookup({})).rejects.toThrow(/needs addresses or a node UUID/);
  });

  it('heartbeats', async () => {
    const { client } = await connectTestClient();
    ironic()
      .post(`/v1/heartbeat/${NODE_UUID}`, {
        callback_url: 'http://192.168.111.20:9999',
        agent_token: 'token-1',
        agent_version: '10.0.0',
        agent_verify_ca: 'PEM',
        agent_status: 'start',
        agent_status_message: 'booting',
      })
      .reply(202);
    await client.agent.heartbeat(NODE_UUID, {
      callbackUrl: 'http://192.168.111.20:9999',
      agentToken: 'token-1',
      agentVersion: '10.0.0',
      agentVerifyCa: 'PEM',
      agentStatus: 'start',
      agentStatusMessage: 'booting',
    });
  });

  it('continues inspection with an inventory', async () => {
    const { client } = await connectTestClient();
    const data = {
      inventory: { interfaces: [{ name: 'eth0', mac_address: '52:54:00:12:34:56' }], cpu: { architecture: 'x86_64' } },
      root_disk: { name: '/dev/sda' },
    };
    ironic().post('/v1/continue_inspection', data).query({ node_uuid: NODE_UUID }).reply(202, lookupResult);
    expect((await client.agent.continueInspection(data, { nodeUuid: NODE_UUID })).node.uuid).toBe(NODE_UUID);
  });
});
