// A Redfish node driven through its whole life by the typed client alone: sushy-tools plays the
// BMC, the agent simulator plays IPA (inspection inventory, cleaning, image and configdrive writes).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connectIronic, IronicNotFoundError } from '../../../ironic-client/index.ts';
import type { ConfigDrive, IronicClient } from '../../../ironic-client/index.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import {
  deleteNodeQuietly,
  redfishNode,
  simulatorRecords,
  stackClientOptions,
  waitForProvisionState,
} from './support.ts';

const env = readStackEnv();
const runId = randomBytes(3).toString('hex');
// Emulated server 35 is this file's (see test/support/test-stack.ts).
const system = env.systems[35]!;
const image = env.images[0]!;

describe('ironic-client drives a Redfish node with the agent simulator', () => {
  let client: IronicClient;
  const created: string[] = [];

  beforeAll(async () => {
    client = await connectIronic(stackClientOptions(env));
  });

  afterAll(async () => {
    for (const id of created) await deleteNodeQuietly(client, id);
    client.close();
  });

  it('creates, manages, inspects, provides, deploys with a configdrive, undeploys, manages and deletes', async () => {
    const name = `ironic-client-it~redfish-${runId}`;
    const node = await client.nodes.create(redfishNode(env, system, name));
    created.push(node.uuid);
    expect(node).toMatchObject({ provision_state: 'enroll', driver: 'redfish', boot_interface: 'ipxe' });
    const port = await client.ports.create({ address: system.macs[0]!, node_uuid: node.uuid, pxe_enabled: true });
    expect(port).toMatchObject({ address: system.macs[0], node_uuid: node.uuid, pxe_enabled: true });

    await client.nodes.setProvisionState(node.uuid, { target: 'manage' });
    await waitForProvisionState(client, node.uuid, 'manageable');

    const inspectionsBefore = (await simulatorRecords(env, system.uuid)).inspections.length;
    await client.nodes.setProvisionState(node.uuid, { target: 'inspect' });
    await waitForProvisionState(client, node.uuid, 'manageable', { timeoutMs: 120_000 });
    const { inventory } = await client.nodes.getInventory(node.uuid);
    expect((inventory.interfaces ?? []).map((nic) => nic.mac_address)).toEqual(expect.arrayContaining(system.macs));
    expect(inventory.disks?.length).toBeGreaterThan(0);
    const inspections = (await simulatorRecords(env, system.uuid)).inspections;
    expect(inspections.length).toBeGreaterThan(inspectionsBefore);
    expect(inspections.at(-1)).toMatchObject({ nodeUuid: node.uuid, accepted: true });
    // Inspection's add_ports = all enrolled the second NIC beside the one created above.
    const ports = await client.ports.listByNode(node.uuid, { fields: ['address'] });
    expect(ports.map((entry) => entry.address).sort()).toEqual([...system.macs].sort());

    const wipesBeforeClean = (await simulatorRecords(env, system.uuid)).diskWipes.length;
    await client.nodes.setProvisionState(node.uuid, { target: 'provide' });
    await waitForProvisionState(client, node.uuid, 'available', { timeoutMs: 120_000 });
    expect((await simulatorRecords(env, system.uuid)).diskWipes.length).toBeGreaterThan(wipesBeforeClean);

    await client.nodes.update(node.uuid, [
      { op: 'add', path: '/instance_info/image_source', value: image.url },
      { op: 'add', path: '/instance_info/image_os_hash_algo', value: 'sha256' },
      { op: 'add', path: '/instance_info/image_os_hash_value', value: image.sha256 },
    ]);
    const validation = await client.nodes.validate(node.uuid);
    for (const iface of ['boot', 'deploy', 'management', 'power'] as const) {
      expect({ iface, ...validation[iface] }).toMatchObject({ iface, result: true });
    }
    const configdrive: ConfigDrive = {
      meta_data: { uuid: node.uuid, name, hostname: `host-${runId}` },
      user_data: `#cloud-config\nhostname: host-${runId}\n`,
      network_data: { links: [], networks: [], services: [] },
    };
    await client.nodes.setProvisionState(node.uuid, { target: 'deploy', configdrive });
    const active = await waitForProvisionState(client, node.uuid, 'active', { timeoutMs: 180_000 });
    expect(active.power_state).toBe('power on');
    expect((await simulatorRecords(env, system.uuid)).imageWrites.at(-1)).toMatchObject({
      nodeUuid: node.uuid,
      outcome: 'written',
      url: image.url,
      bytes: image.sizeBytes,
      checksum: { algorithm: 'sha256', expected: image.sha256, actual: image.sha256 },
      configDrive: { written: true, bytes: expect.any(Number) },
    });

    const wipesBeforeUndeploy = (await simulatorRecords(env, system.uuid)).diskWipes.length;
    await client.nodes.setProvisionState(node.uuid, { target: 'undeploy' });
    await waitForProvisionState(client, node.uuid, 'available', { timeoutMs: 120_000 });
    expect((await simulatorRecords(env, system.uuid)).diskWipes.length).toBeGreaterThan(wipesBeforeUndeploy);
    expect((await client.nodes.get(node.uuid, { fields: ['instance_info'] })).instance_info).toEqual({});

    await client.nodes.setProvisionState(node.uuid, { target: 'manage' });
    await waitForProvisionState(client, node.uuid, 'manageable');
    await client.nodes.delete(node.uuid);
    await expect(client.nodes.get(node.uuid)).rejects.toBeInstanceOf(IronicNotFoundError);
    expect((await client.ports.list({ address: system.macs[0]! })).items).toEqual([]);
  }, 420_000);
});
