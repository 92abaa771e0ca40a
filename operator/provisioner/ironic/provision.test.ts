import { describe, expect, it } from '@jest/globals';
import { ironicError, makeNode } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import type { ProvisionOptions } from '../provisioner.ts';
import { FakeClock } from '../../runtime/testing/fake-clock.ts';
import { HOST, HOST_UID, NODE_PATH, startKit } from './testing/ironic-test-kit.ts';

useNock();

const IMAGE = { url: 'http://images.test/os.qcow2', checksum: 'a'.repeat(64), checksumType: 'sha256' as const, format: 'qcow2' as const };
const configDrive = { meta_data: { uuid: HOST_UID, name: 'worker-0' }, user_data: '#cloud-config\n' };
const options = (overrides: Partial<ProvisionOptions> = {}): ProvisionOptions => ({
  host: HOST,
  image: IMAGE,
  configDrive,
  bootMode: 'UEFI',
  ...overrides,
});
const validationOk = { boot: { result: true, reason: null }, deploy: { result: true, reason: null }, rescue: { result: null, reason: 'not supported' } };
/** instance_info as provisioning leaves it for IMAGE. */
const instanceInfo = {
  capabilities: {},
  root_device: {},
  image_source: IMAGE.url,
  image_disk_format: 'qcow2',
  image_os_hash_algo: 'sha256',
  image_os_hash_value: IMAGE.checksum,
};

describe('provision', () => {
  it('provides a manageable node so automated cleaning runs', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    expect(await kit.provisioner.provision(options())).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision provide`]);
  });

  it('writes instance settings, validates and deploys with the config drive', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'available', driver_info: {} }));
    kit.ironic.patch(NODE_PATH).reply(200, makeNode({ provision_state: 'available', instance_info: instanceInfo, instance_uuid: HOST_UID }));
    kit.ironic.get(`${NODE_PATH}/validate`).reply(200, validationOk);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    const result = await kit.provisioner.provision(options({ rootDeviceHints: { deviceName: '/dev/sda' } }));

    expect(result).toEqual({ kind: 'busy', afterMs: 3000, reason: expect.stringContaining('"deploy" requested'), awaitsNodeChange: true });
    expect(kit.calls()).toEqual([
      `GET ${NODE_PATH}`,
      `PATCH ${NODE_PATH} add /instance_uuid, add /instance_info/capabilities, add /instance_info/root_device, add /instance_info/image_source, add /instance_info/image_disk_format, add /instance_info/image_os_hash_algo, add /instance_info/image_os_hash_value, add /driver_info/force_persistent_boot_device`,
      `GET ${NODE_PATH}/validate`,
      `PUT ${NODE_PATH}/states/provision active`,
    ]);
    expect(kit.requests[1]?.body).toContainEqual({ op: 'add', path: '/instance_info/root_device', value: { name: 's== /dev/sda' } });
    expect(kit.requests[3]?.body).toEqual({ target: 'active', configdrive: configDrive });
  });

  it('does not patch settings that are already in place', async () => {
    const kit = await startKit();
    const ready = makeNode({
      provision_state: 'available',
      instance_uuid: HOST_UID,
      instance_info: instanceInfo,
      driver_info: { force_persistent_boot_device: 'Default' },
    });
    kit.ironic.get(NODE_PATH).reply(200, ready);
    kit.ironic.get(`${NODE_PATH}/validate`).reply(200, validationOk);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.provision(options());

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}/validate`, `PUT ${NODE_PATH}/states/provision active`]);
  });

  it('records a validation error with the reasons Ironic gave', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'available', instance_uuid: HOST_UID, instance_info: instanceInfo, driver_info: { force_persistent_boot_device: 'Default' } }));
    kit.ironic.get(`${NODE_PATH}/validate`).reply(200, {
      boot: { result: false, reason: 'Cannot validate image information for node because one or more parameters are missing' },
      deploy: { result: false, reason: 'Node has no ports' },
    });

    const result = await kit.provisioner.provision(options());

    expect(result).toEqual({
      kind: 'failed',
      message: 'host validation error: Cannot validate image information for node because one or more parameters are missing; Node has no ports',
    });
  });

  it('sends the custom deploy step with priority 80', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'available' }));
    kit.ironic.patch(NODE_PATH).reply(200, makeNode({ provision_state: 'available', deploy_interface: 'custom-agent' }));
    kit.ironic.get(`${NODE_PATH}/validate`).reply(200, validationOk);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.provision(options({ image: undefined, customDeploy: { method: 'install_coreos' } }));

    expect(kit.requests[3]?.body).toEqual({
      target: 'active',
      configdrive: configDrive,
      deploy_steps: [{ interface: 'deploy', step: 'install_coreos', args: {}, priority: 80 }],
    });
  });

  it('is done when the node is active, and busy while it deploys', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'wait call-back', target_provision_state: 'active' }));
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'active' }));

    expect(await kit.provisioner.provision(options())).toMatchObject({ kind: 'busy', afterMs: 10_000, awaitsNodeChange: true });
    expect(await kit.provisioner.provision(options())).toEqual({ kind: 'done', value: undefined });
  });

  it('polls a deployment itself when a forced reboot is to undeploy at wait call-back (the node list shows no change)', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'deploying', target_provision_state: 'active' }));
    const result = await kit.provisioner.provision(options({ forceReboot: true }));
    expect(result).toMatchObject({ kind: 'busy', afterMs: 10_000 });
    expect(result).not.toHaveProperty('awaitsNodeChange');
  });

  it("records a failed deployment of the same image with Ironic's error", async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({
      provision_state: 'deploy failed',
      instance_info: instanceInfo,
      last_error: 'Image download failed: 404 Not Found',
    }));

    expect(await kit.provisioner.provision(options())).toEqual({
      kind: 'failed',
      message: `Image provisioning failed (url: ${IMAGE.url}, checksum: ${IMAGE.checksum}): Image download failed: 404 Not Found`,
    });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });

  it('deploys again after a failure when the image changed', async () => {
    const kit = await startKit();
    const newImage = { ...IMAGE, url: 'http://images.test/os-v2.qcow2' };
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'deploy failed', instance_uuid: HOST_UID, instance_info: instanceInfo, last_error: 'boom', driver_info: { force_persistent_boot_device: 'Default' } }));
    kit.ironic.patch(NODE_PATH).reply(200, makeNode({ provision_state: 'deploy failed' }));
    kit.ironic.get(`${NODE_PATH}/validate`).reply(200, validationOk);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.provision(options({ image: newImage }));

    expect(kit.calls()).toEqual([
      `GET ${NODE_PATH}`,
      `PATCH ${NODE_PATH} add /instance_info/image_source`,
      `GET ${NODE_PATH}/validate`,
      `PUT ${NODE_PATH}/states/provision active`,
    ]);
  });

  it('undeploys a waiting deployment to force a reboot', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'wait call-back' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.provision(options({ forceReboot: true }));

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `PUT ${NODE_PATH}/states/provision deleted`]);
  });

  it('rejects an image without a usable checksum before touching Ironic state', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'available' }));
    expect(await kit.provisioner.provision(options({ image: { url: 'http://images.test/os.qcow2' } }))).toEqual({
      kind: 'failed',
      message: 'Validation failed: checksum is required for normal images',
    });
  });

  it('lifts maintenance and manages a node whose cleaning failed', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'clean failed', maintenance: true, fault: 'clean failure' }));
    kit.ironic.delete(`${NODE_PATH}/maintenance`).reply(202);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.provision(options());

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `DELETE ${NODE_PATH}/maintenance`, `PUT ${NODE_PATH}/states/provision manage`]);
  });

  it("records Ironic's refusal of the settings", async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'available' }));
    kit.ironic.patch(NODE_PATH).reply(400, ironicError("Invalid deploy interface 'custom-agent'"));

    expect(await kit.provisioner.provision(options())).toEqual({
      kind: 'failed',
      message: "failed to update host settings in ironic: Invalid deploy interface 'custom-agent'",
    });
  });
});

describe('provision after a failure without an error message', () => {
  it('waits briefly for last_error, then reports the failure anyway', async () => {
    const clock = new FakeClock(Date.parse('2026-08-20T10:00:05+00:00'));
    const kit = await startKit({ provisioner: { clock } });
    const failedNode = makeNode({ provision_state: 'deploy failed', instance_info: instanceInfo, last_error: null, provision_updated_at: '2026-08-20T10:00:00+00:00' });
    kit.ironic.get(NODE_PATH).times(2).reply(200, failedNode);

    expect(await kit.provisioner.provision(options())).toMatchObject({ kind: 'busy' });
    await clock.advance(5_000);
    expect(await kit.provisioner.provision(options())).toEqual({
      kind: 'failed',
      message: `Image provisioning failed (url: ${IMAGE.url}, checksum: ${IMAGE.checksum}): Ironic recorded no error message`,
    });
  });
});

describe('provision confirmed from the node list', () => {
  const listed = (overrides: Record<string, unknown>) => ({
    uuid: makeNode().uuid, name: makeNode().name, power_state: 'power off', target_power_state: null, target_provision_state: null,
    maintenance: false, fault: null, last_error: null, health: 'OK', links: [], ...overrides,
  });

  it("takes provide's and deploy's ends from the list, reading the node once", async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000, settledCopyMaxAgeMs: undefined } });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable', driver_info: {} }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed({ provision_state: 'available' })] });
    kit.ironic.patch(NODE_PATH).reply(200, makeNode({ provision_state: 'available', instance_info: instanceInfo, instance_uuid: HOST_UID }));
    kit.ironic.get(`${NODE_PATH}/validate`).reply(200, validationOk);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed({ provision_state: 'active', power_state: 'power on' })] });

    await kit.provisioner.provision(options());
    await clock.advance(3_000);
    await kit.provisioner.nodeDigests();
    expect(await kit.provisioner.provision(options())).toMatchObject({ kind: 'busy', reason: expect.stringContaining('"deploy" requested') });
    await clock.advance(3_000);
    await kit.provisioner.nodeDigests();
    expect(await kit.provisioner.provision(options())).toEqual({ kind: 'done' });
    expect(await kit.provisioner.hardwareState({ host: HOST })).toEqual({ poweredOn: true });

    expect(kit.calls().filter((call) => call.startsWith(`GET ${NODE_PATH}`))).toEqual([`GET ${NODE_PATH}`, `GET ${NODE_PATH}/validate`]);
  });

  it('reads the node when the list shows cleaning ended otherwise than asked', async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000, settledCopyMaxAgeMs: undefined } });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'manageable' }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed({ provision_state: 'clean failed', last_error: 'erase failed' })] });
    kit.ironic.get(NODE_PATH).reply(200, makeNode({ provision_state: 'clean failed', last_error: 'erase failed', maintenance: true }));
    kit.ironic.post(`${NODE_PATH}/maintenance`).optionally().reply(202);
    kit.ironic.delete(`${NODE_PATH}/maintenance`).reply(202);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.provision(options());
    await clock.advance(3_000);
    await kit.provisioner.nodeDigests();
    await kit.provisioner.provision(options());

    expect(kit.calls().filter((call) => call === `GET ${NODE_PATH}`)).toHaveLength(2);
  });
});
