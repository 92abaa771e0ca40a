import { describe, expect, it } from '@jest/globals';
import { makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import { HOST, NODE_PATH, startKit } from './testing/ironic-test-kit.ts';

useNock();

const deprovision = { host: HOST, automatedCleaningMode: 'metadata' as const, retryAfterFailure: false };

describe('changeProvisionState', () => {
  it('waits the short interval while a conductor holds the lock, then asks once it is released', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active', automated_clean: true, reservation: 'conductor-1' }));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active', automated_clean: true, reservation: null }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    const locked = await kit.provisioner.deprovision(deprovision);
    expect(locked).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(locked).toMatchObject({ reason: expect.stringContaining('locked by conductor-1') });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);

    expect(await kit.provisioner.deprovision(deprovision)).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision deleted`]);
  });

  it('does not take the lock of its own PATCH, shown in the node Ironic answers with, for a busy node', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'deploy failed', automated_clean: true }));
    kit.ironic.patch(NODE_PATH).reply(200, makeNode({ provision_state: 'deploy failed', automated_clean: false, reservation: 'conductor-1' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.deprovision({ ...deprovision, automatedCleaningMode: 'disabled' });

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PATCH ${NODE_PATH} add /automated_clean`, `PUT ${NODE_PATH}/states/provision deleted`]);
  });

  it('does not lift maintenance on a locked node either', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active', automated_clean: true, maintenance: true, reservation: 'conductor-1' }));

    expect(await kit.provisioner.deprovision(deprovision)).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });
});
