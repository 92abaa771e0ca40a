import { describe, expect, it } from '@jest/globals';
import { makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import { TransientProvisionerError } from '../result.ts';
import { HOST, NODE_PATH, startKit } from './testing/ironic-test-kit.ts';

useNock();

describe('adopt', () => {
  it('adopts a manageable node, and waits while it adopts', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'adopting' }));

    expect(await kit.provisioner.adopt({ host: HOST, retryAfterFailure: false })).toEqual({ kind: 'busy', afterMs: 3000, reason: expect.stringContaining('"adopt" requested'), awaitsNodeChange: true });
    expect(await kit.provisioner.adopt({ host: HOST, retryAfterFailure: false })).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision adopt`, `GET ${NODE_PATH}`]);
  });

  it('leaves a manageable node alone while deprovisioning', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    expect(await kit.provisioner.adopt({ host: HOST, retryAfterFailure: false, deprovisioning: true })).toEqual({ kind: 'done', value: undefined });
  });

  it('is done for an active node, lifting maintenance set by hand', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active', maintenance: true, fault: null }));
    kit.ironic.delete(`${NODE_PATH}/maintenance`).reply(202);

    expect(await kit.provisioner.adopt({ host: HOST, retryAfterFailure: false })).toEqual({ kind: 'done', value: undefined });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `DELETE ${NODE_PATH}/maintenance`]);
  });

  it('reports a failed adoption and retries it after the failure was recorded', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).times(2).reply(200, makeNode({ provision_state: 'adopt failed', last_error: 'no image_source' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.adopt({ host: HOST, retryAfterFailure: false })).toEqual({ kind: 'failed', message: 'Host adoption failed: no image_source' });
    expect(await kit.provisioner.adopt({ host: HOST, retryAfterFailure: true })).toMatchObject({ kind: 'busy' });
  });

  it('refuses to adopt a node that is not registered yet', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'enroll' }));
    await expect(kit.provisioner.adopt({ host: HOST, retryAfterFailure: false })).rejects.toBeInstanceOf(TransientProvisionerError);
  });
});
