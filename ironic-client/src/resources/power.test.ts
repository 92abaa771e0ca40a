import { describe, expect, it } from '@jest/globals';
import { IronicBadRequestError } from '../errors.ts';
import { ironicError, NODE_UUID } from '../../test-support/fixtures.ts';
import { connectTestClient, ironic } from '../../test-support/ironic-mock.ts';
import { useNock } from '../../test-support/nock-lifecycle.ts';

useNock();
const path = `/v1/nodes/${NODE_UUID}/states/power`;

describe('nodes.setPowerState', () => {
  it('powers on', async () => {
    const { client } = await connectTestClient();
    ironic().put(path, { target: 'power on' }).reply(202);
    await client.nodes.setPowerState(NODE_UUID, { target: 'power on' });
  });

  it('soft powers off with a timeout', async () => {
    const { client } = await connectTestClient();
    ironic().put(path, { target: 'soft power off', timeout: 180 }).reply(202);
    await client.nodes.setPowerState(NODE_UUID, { target: 'soft power off', timeoutSeconds: 180 });
  });

  it('rejects a non-positive timeout before sending', async () => {
    const { client } = await connectTestClient();
    await expect(client.nodes.setPowerState(NODE_UUID, { target: 'rebooting', timeoutSeconds: 0 })).rejects.toThrow(RangeError);
  });

  it('reports a refused change (e.g. while cleaning) as a bad request', async () => {
    const { client } = await connectTestClient();
    ironic().put(path).reply(400, ironicError('The requested action "power off" can not be performed on node "x" while it is in state "clean wait".'));
    await expect(client.nodes.setPowerState(NODE_UUID, { target: 'power off' })).rejects.toBeInstanceOf(IronicBadRequestError);
  });
});
