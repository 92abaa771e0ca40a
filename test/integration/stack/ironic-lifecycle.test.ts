import { describe, expect, it } from '@jest/globals';
import { parseSimulatorConfig } from '../../../hack/agent-simulator/config.ts';
import { buildInspectionData } from '../../../hack/agent-simulator/inspection-data.ts';
import { buildInventory } from '../../../hack/agent-simulator/inventory.ts';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { RawIronic } from '../../support/raw-ironic.ts';

// Only Ironic's own API drives these nodes: the stack is proven before any operator code runs.
// Emulated servers 26 and 27 are this file's (see test/support/test-stack.ts).
const env = readStackEnv();
const ironic = new RawIronic(env.ironicUrl);
const image = env.images[0]!;
const configdrive = {
  meta_data: { uuid: 'stack-test', name: 'stack-test' },
  user_data: '#cloud-config\nhostname: stack-test\n',
  network_data: { links: [], networks: [], services: [] },
};

async function records(systemUuid: string): Promise<SystemRecords> {
  return (await (await fetch(`${env.agentSimulatorUrl}/records/${systemUuid}`)).json()) as SystemRecords;
}

async function deleteNode(id: string): Promise<void> {
  await ironic.request('DELETE', `/v1/nodes/${id}`);
  const gone = await fetch(`${env.ironicUrl}/v1/nodes/${id}`, { headers: { 'x-openstack-ironic-api-version': '1.95' } });
  expect(gone.status).toBe(404);
}

describe('a node driven through Ironic alone', () => {
  it('goes enroll -> manageable -> inspected -> available -> active -> available over Redfish with the agent simulator', async () => {
    const system = env.systems[26]!;
    const node = await ironic.request<{ uuid: string; provision_state: string }>('POST', '/v1/nodes', {
      name: 'stack-test-redfish',
      driver: 'redfish',
      boot_interface: 'ipxe',
      driver_info: {
        redfish_address: env.sushyUrl,
        redfish_system_id: `/redfish/v1/Systems/${system.uuid}`,
        ...(env.bmcCredentials
          ? { redfish_username: env.bmcCredentials.username, redfish_password: env.bmcCredentials.password }
          : {}),
      },
    });
    expect(node.provision_state).toBe('enroll');
    await ironic.request('POST', '/v1/ports', { address: system.macs[0], node_uuid: node.uuid, pxe_enabled: true });

    await ironic.provision(node.uuid, { target: 'manage' });
    await ironic.waitForState(node.uuid, 'manageable');

    await ironic.provision(node.uuid, { target: 'inspect' });
    await ironic.waitForState(node.uuid, 'manageable');
    const inventory = await ironic.request<{ inventory: { interfaces: { mac_address: string }[]; disks: unknown[] } }>(
      'GET', `/v1/nodes/${node.uuid}/inventory`);
    expect(inventory.inventory.interfaces.map((nic) => nic.mac_address)).toContain(system.macs[0]);
    expect(inventory.inventory.disks.length).toBeGreaterThan(0);
    expect((await records(system.uuid)).inspections.at(-1)).toMatchObject({ nodeUuid: node.uuid, accepted: true });

    const wipesBeforeClean = (await records(system.uuid)).diskWipes.length;
    await ironic.provision(node.uuid, { target: 'provide' });
    await ironic.waitForState(node.uuid, 'available');
    expect((await records(system.uuid)).diskWipes.length).toBeGreaterThan(wipesBeforeClean);

    await ironic.request('PATCH', `/v1/nodes/${node.uuid}`, [
      { op: 'add', path: '/instance_info/image_source', value: image.url },
      { op: 'add', path: '/instance_info/image_os_hash_algo', value: 'sha256' },
      { op: 'add', path: '/instance_info/image_os_hash_value', value: image.sha256 },
    ]);
    await ironic.provision(node.uuid, { target: 'active', configdrive });
    const active = await ironic.waitForState(node.uuid, 'active');
    expect(active.power_state).toBe('power on');
    const write = (await records(system.uuid)).imageWrites.at(-1);
    expect(write).toMatchObject({
      nodeUuid: node.uuid,
      outcome: 'written',
      url: image.url,
      bytes: image.sizeBytes,
      checksum: { algorithm: 'sha256', expected: image.sha256, actual: image.sha256 },
      configDrive: { written: true },
    });

    const wipesBeforeUndeploy = (await records(system.uuid)).diskWipes.length;
    await ironic.provision(node.uuid, { target: 'deleted' });
    await ironic.waitForState(node.uuid, 'available');
    expect((await records(system.uuid)).diskWipes.length).toBeGreaterThan(wipesBeforeUndeploy);

    await ironic.provision(node.uuid, { target: 'manage' });
    await ironic.waitForState(node.uuid, 'manageable');
    await deleteNode(node.uuid);
  });

  it('fails a deploy for real when the image checksum is wrong, with the agent error in last_error', async () => {
    const system = env.systems[27]!;
    const node = await ironic.request<{ uuid: string }>('POST', '/v1/nodes', {
      name: 'stack-test-bad-checksum',
      driver: 'redfish',
      driver_info: {
        redfish_address: env.sushyUrl,
        redfish_system_id: `/redfish/v1/Systems/${system.uuid}`,
        ...(env.bmcCredentials
          ? { redfish_username: env.bmcCredentials.username, redfish_password: env.bmcCredentials.password }
          : {}),
      },
      // Inspection and cleaning are proven above; skip them here to keep the run short.
      automated_clean: false,
    });
    await ironic.request('POST', '/v1/ports', { address: system.macs[0], node_uuid: node.uuid, pxe_enabled: true });
    await ironic.provision(node.uuid, { target: 'manage' });
    await ironic.waitForState(node.uuid, 'manageable');
    await ironic.provision(node.uuid, { target: 'provide' });
    await ironic.waitForState(node.uuid, 'available');
    await ironic.request('PATCH', `/v1/nodes/${node.uuid}`, [
      { op: 'add', path: '/instance_info/image_source', value: image.url },
      { op: 'add', path: '/instance_info/image_os_hash_algo', value: 'sha256' },
      { op: 'add', path: '/instance_info/image_os_hash_value', value: '0'.repeat(64) },
    ]);
    await ironic.provision(node.uuid, { target: 'active', configdrive });
    await expect(ironic.waitForState(node.uuid, 'active')).rejects.toThrow(/deploy failed.*[Cc]hecksum/s);
    expect((await records(system.uuid)).imageWrites.at(-1)).toMatchObject({ nodeUuid: node.uuid, outcome: 'failed' });

    await ironic.provision(node.uuid, { target: 'deleted' });
    await ironic.waitForState(node.uuid, 'available');
    await ironic.provision(node.uuid, { target: 'manage' });
    await ironic.waitForState(node.uuid, 'manageable');
    await deleteNode(node.uuid);
  });

  it('runs the same cycle with fake-hardware, the inventory coming from the simulator', async () => {
    const node = await ironic.request<{ uuid: string }>('POST', '/v1/nodes', {
      name: 'stack-test-fake',
      driver: 'fake-hardware',
      boot_interface: 'fake',
      deploy_interface: 'fake',
      inspect_interface: 'agent',
      management_interface: 'fake',
      power_interface: 'fake',
    });
    const mac = '00:5a:91:ff:00:01';
    await ironic.request('POST', '/v1/ports', { address: mac, node_uuid: node.uuid, pxe_enabled: true });
    await ironic.provision(node.uuid, { target: 'manage' });
    await ironic.waitForState(node.uuid, 'manageable');

    await ironic.provision(node.uuid, { target: 'inspect' });
    await ironic.waitForProvisionState(node.uuid, 'inspect wait');
    // fake power boots nothing, so play the ramdisk's part with the simulator's own inventory.
    const [simulated] = parseSimulatorConfig({
      listen: { port: 1 }, ironicUrl: env.ironicUrl, redfish: { url: env.sushyUrl },
      systems: [{ uuid: node.uuid, name: 'fake', nics: [{ mac }] }],
    }).systems;
    const response = await fetch(`${env.ironicUrl}/v1/continue_inspection?node_uuid=${node.uuid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-openstack-ironic-api-version': '1.95' },
      body: JSON.stringify(buildInspectionData(buildInventory(simulated!))),
    });
    expect(response.status).toBe(202);
    await ironic.waitForState(node.uuid, 'manageable');
    const inventory = await ironic.request<{ inventory: { interfaces: { mac_address: string }[] } }>(
      'GET', `/v1/nodes/${node.uuid}/inventory`);
    expect(inventory.inventory.interfaces.map((nic) => nic.mac_address)).toContain(mac);

    await ironic.provision(node.uuid, { target: 'provide' });
    await ironic.waitForState(node.uuid, 'available');
    await ironic.request('PATCH', `/v1/nodes/${node.uuid}`, [
      { op: 'add', path: '/instance_info/image_source', value: image.url },
      { op: 'add', path: '/instance_info/image_checksum', value: image.md5 },
    ]);
    await ironic.provision(node.uuid, { target: 'active', configdrive });
    await ironic.waitForState(node.uuid, 'active');
    await ironic.provision(node.uuid, { target: 'deleted' });
    await ironic.waitForState(node.uuid, 'available');
    await deleteNode(node.uuid);
  });
});
