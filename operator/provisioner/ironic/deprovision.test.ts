import { describe, expect, it } from '@jest/globals';
import { makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import type { DeprovisionOptions } from '../provisioner.ts';
import { TransientProvisionerError } from '../result.ts';
import { FakeClock } from '../../runtime/testing/fake-clock.ts';
import { HOST, HOST_UID, NODE_PATH, startKit } from './testing/ironic-test-kit.ts';

useNock();

const options = (overrides: Partial<DeprovisionOptions> = {}): DeprovisionOptions => ({
  host: HOST,
  automatedCleaningMode: 'metadata',
  retryAfterFailure: false,
  ...overrides,
});

describe('deprovision', () => {
  it('undeploys an active node whose automated_clean already matches', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active', automated_clean: true }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.deprovision(options())).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision deleted`]);
  });

  it('syncs automated_clean before undeploying', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'deploy failed', automated_clean: true }));
    kit.ironic.patch(NODE_PATH).reply(200, makeNode({ provision_state: 'deploy failed', automated_clean: false }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.deprovision(options({ automatedCleaningMode: 'disabled' }));

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PATCH ${NODE_PATH} add /automated_clean`, `PUT ${NODE_PATH}/states/provision deleted`]);
  });

  it('waits while Ironic undeploys and cleans; only a running deployment has a step the node list does not show', async () => {
    const kit = await startKit();
    for (const state of ['deleting', 'cleaning', 'clean wait', 'deploying']) kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: state as never }));
    for (let i = 0; i < 3; i++) expect(await kit.provisioner.deprovision(options())).toMatchObject({ kind: 'busy', afterMs: 10_000, awaitsNodeChange: true });
    // Deploying goes on to wait call-back, where the undeploy starts: the same operation to the list.
    const deploying = await kit.provisioner.deprovision(options());
    expect(deploying).toMatchObject({ kind: 'busy', afterMs: 10_000 });
    expect(deploying).not.toHaveProperty('awaitsNodeChange');
  });

  it('is done once the node is available', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'available' }));
    expect(await kit.provisioner.deprovision(options())).toEqual({ kind: 'done', value: undefined });
  });

  it('reports a cleaning failure first, then lifts maintenance and manages the node', async () => {
    const kit = await startKit();
    const failedNode = makeNode({ provision_state: 'clean failed', maintenance: true, fault: 'clean failure', last_error: 'Disk erase failed' });
    kit.ironic.get(NODE_PATH).times(2).reply(200, failedNode);
    kit.ironic.delete(`${NODE_PATH}/maintenance`).reply(202);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.deprovision(options())).toEqual({ kind: 'failed', message: 'Cleaning failed: Disk erase failed' });
    expect(await kit.provisioner.deprovision(options({ retryAfterFailure: true }))).toMatchObject({ kind: 'busy' });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}`, `DELETE ${NODE_PATH}/maintenance`, `PUT ${NODE_PATH}/states/provision manage`]);
  });

  it('provides a manageable node to clean it again', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.deprovision(options());

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision provide`]);
  });

  it('retries undeploy from error only after the failure was recorded', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).times(2).reply(200, makeNode({ provision_state: 'error', last_error: 'Failed to tear down' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.deprovision(options())).toEqual({ kind: 'failed', message: 'Failed to tear down' });
    expect(await kit.provisioner.deprovision(options({ retryAfterFailure: true }))).toMatchObject({ kind: 'busy', afterMs: 3000 });
  });

  it('treats an unexpected state as transient', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'inspect wait' }));
    await expect(kit.provisioner.deprovision(options())).rejects.toBeInstanceOf(TransientProvisionerError);
  });

  it('waits instead of changing state while the node has a fault', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable', fault: 'power failure', maintenance: true }));
    expect(await kit.provisioner.deprovision(options())).toMatchObject({ kind: 'busy', afterMs: 10_000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });
});

describe('deprovision confirmed from the node list', () => {
  it("takes the undeploy's end from the list, with the instance settings its tear down removed", async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000, settledCopyMaxAgeMs: undefined } });
    const image = { url: 'http://images.test/os.qcow2', checksum: 'a'.repeat(64), checksumType: 'sha256' as const, format: 'qcow2' as const };
    kit.ironic.get(NODE_PATH).reply(200, makeNode({
      provision_state: 'active', automated_clean: true, instance_uuid: HOST_UID, driver_info: { force_persistent_boot_device: 'Default' },
      instance_info: { capabilities: {}, root_device: {}, image_source: image.url, image_disk_format: 'qcow2', image_os_hash_algo: 'sha256', image_os_hash_value: image.checksum },
    }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [{
      uuid: makeNode().uuid, name: makeNode().name, power_state: 'power off', target_power_state: null, provision_state: 'available',
      target_provision_state: null, maintenance: false, fault: null, last_error: null, health: 'OK',
    }] });
    kit.ironic.patch(NODE_PATH).reply(200, makeNode({ provision_state: 'available' }));
    kit.ironic.get(`${NODE_PATH}/validate`).reply(200, { boot: { result: true }, deploy: { result: true } });
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.deprovision(options());
    await clock.advance(3_000);
    await kit.provisioner.nodeDigests();
    expect(await kit.provisioner.deprovision(options())).toEqual({ kind: 'done' });
    await kit.provisioner.provision({ host: HOST, image, bootMode: 'UEFI' });

    expect(kit.calls().filter((call) => call === `GET ${NODE_PATH}`)).toHaveLength(1);
    expect(kit.calls()).toContainEqual(expect.stringMatching(new RegExp(`^PATCH ${NODE_PATH} add /instance_uuid, .*add /instance_info/image_source`)));
  });
});
