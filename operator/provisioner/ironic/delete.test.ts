import { describe, expect, it } from '@jest/globals';
import { ironicError, lockedError, makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import { HOST, HOST_UID, NEW_HOST, NODE_PATH, startKit } from './testing/ironic-test-kit.ts';

useNock();

describe('delete', () => {
  it('forces deletion of an active node through maintenance', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active' }));
    kit.ironic.put(`${NODE_PATH}/maintenance`).reply(202);
    kit.ironic.delete(NODE_PATH).reply(204);

    expect(await kit.provisioner.delete({ host: HOST })).toEqual({ kind: 'done', value: undefined });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/maintenance`, `DELETE ${NODE_PATH}`]);
    expect(kit.requests[1]?.body).toEqual({ reason: 'forcing deletion in baremetal-operator' });
  });

  it('clears a stale instance UUID before deleting an available node', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'available', instance_uuid: HOST_UID }));
    kit.ironic.patch(NODE_PATH).reply(200, makeNode({ provision_state: 'available' }));
    kit.ironic.delete(NODE_PATH).reply(204);

    await kit.provisioner.delete({ host: HOST });

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PATCH ${NODE_PATH} remove /instance_uuid`, `DELETE ${NODE_PATH}`]);
  });

  it('deletes enrolled and manageable nodes directly', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'enroll' }));
    kit.ironic.delete(NODE_PATH).reply(204);
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    kit.ironic.delete(NODE_PATH).reply(204);

    await kit.provisioner.delete({ host: HOST });
    await kit.provisioner.delete({ host: HOST });

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `DELETE ${NODE_PATH}`, `GET ${NODE_PATH}`, `DELETE ${NODE_PATH}`]);
  });

  it('waits while Ironic works or verifies', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'verifying' }));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'cleaning' }));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'clean wait' }));

    expect(await kit.provisioner.delete({ host: HOST })).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(await kit.provisioner.delete({ host: HOST })).toMatchObject({ kind: 'busy', afterMs: 10_000, awaitsNodeChange: true });
    expect(await kit.provisioner.delete({ host: HOST })).toMatchObject({ kind: 'busy', afterMs: 10_000, awaitsNodeChange: true });
  });

  it('past the deadline, forces the removal of a node Ironic is deploying: maintenance, then delete', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'deploying' }));
    kit.ironic.put(`${NODE_PATH}/maintenance`).reply(202);
    kit.ironic.delete(NODE_PATH).reply(204);

    expect(await kit.provisioner.delete({ host: HOST, forceRemoval: true })).toEqual({ kind: 'done', value: undefined });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/maintenance`, `DELETE ${NODE_PATH}`]);
    expect(kit.requests[1]?.body).toEqual({ reason: 'forcing deletion in baremetal-operator (deletion deadline passed)' });
  });

  it('past the deadline, waits out a conductor holding the node (a BMC call that does not return) without asking', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'deploying', reservation: 'conductor-1' }));

    expect(await kit.provisioner.delete({ host: HOST, forceRemoval: true })).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });

  it('past the deadline, a node already in maintenance is deleted at once', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'clean wait', maintenance: true }));
    kit.ironic.delete(NODE_PATH).reply(204);

    expect(await kit.provisioner.delete({ host: HOST, forceRemoval: true })).toEqual({ kind: 'done', value: undefined });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `DELETE ${NODE_PATH}`]);
  });

  it('is done when the node is already gone', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(404, ironicError('not found'));
    kit.ironic.get('/v1/nodes/metal3~worker-0').reply(404, ironicError('not found'));

    expect(await kit.provisioner.delete({ host: HOST })).toEqual({ kind: 'done', value: undefined });
  });

  it('finds the node by name when no UUID was recorded', async () => {
    const kit = await startKit();
    kit.ironic.get('/v1/nodes/metal3~worker-0').reply(200, makeNode({ provision_state: 'enroll' }));
    kit.ironic.delete(NODE_PATH).reply(204);

    expect(await kit.provisioner.delete({ host: NEW_HOST })).toEqual({ kind: 'done', value: undefined });
  });

  it('counts a 404 on DELETE as deleted and a 409 as busy for 3 s', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    kit.ironic.delete(NODE_PATH).reply(404, ironicError('not found'));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    kit.ironic.delete(NODE_PATH).times(3).reply(409, lockedError());

    expect(await kit.provisioner.delete({ host: HOST })).toEqual({ kind: 'done', value: undefined });
    expect(await kit.provisioner.delete({ host: HOST })).toMatchObject({ kind: 'busy', afterMs: 3000 });
  });
});

describe('detach', () => {
  it('waits for a waiting operation unless forced, then aborts it', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).times(2).reply(200, makeNode({ provision_state: 'wait call-back' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.detach({ host: HOST, force: false })).toMatchObject({ kind: 'busy', afterMs: 10_000, awaitsNodeChange: true });
    expect(await kit.provisioner.detach({ host: HOST, force: true })).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision abort`]);
  });

  it('undeploys a waiting deployment when Ironic cannot abort one (API < 1.110)', async () => {
    const kit = await startKit({ serverMax: '1.109' });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'wait call-back' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.detach({ host: HOST, force: true });

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision deleted`]);
  });

  it('removes a provisioned node without deprovisioning it', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active', maintenance: true }));
    kit.ironic.delete(NODE_PATH).reply(204);

    expect(await kit.provisioner.detach({ host: HOST, force: false })).toEqual({ kind: 'done', value: undefined });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `DELETE ${NODE_PATH}`]);
  });
});
