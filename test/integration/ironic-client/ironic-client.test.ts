// The typed client against the real Ironic of the local stack, with fake-hardware nodes so no
// BMC or agent is involved: every call, status code and body shape comes from Ironic itself.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import {
  connectIronic,
  IronicConflictError,
  IronicNotFoundError,
  REQUESTS_TOTAL,
} from '../../../ironic-client/index.ts';
import type { IronicClient, IronicClientOptions, NodeCreate } from '../../../ironic-client/index.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';

const env = readStackEnv();
const runId = randomBytes(3).toString('hex');

function clientOptions(registry?: Registry): IronicClientOptions {
  return {
    endpoint: env.ironicUrl,
    ...(env.ironicAuth ? { auth: { type: 'http_basic', credentialsDir: env.ironicAuth.directory } } : {}),
    ...(registry ? { metricsRegistry: registry } : {}),
  };
}

/** fake-hardware with agent inspection: the test posts the inventory an agent would. */
function fakeNode(name: string): NodeCreate {
  return {
    name,
    driver: 'fake-hardware',
    bios_interface: 'fake',
    boot_interface: 'fake',
    deploy_interface: 'fake',
    firmware_interface: 'fake',
    inspect_interface: 'agent',
    management_interface: 'fake',
    power_interface: 'fake',
    raid_interface: 'fake',
    vendor_interface: 'fake',
    automated_clean: false,
    properties: { cpu_arch: 'x86_64' },
  };
}

function macFor(index: number): string {
  return `52:54:0e:${runId.slice(0, 2)}:${runId.slice(2, 4)}:${index.toString(16).padStart(2, '0')}`;
}

async function waitForState(client: IronicClient, id: string, state: string): Promise<void> {
  await waitFor(
    async () => {
      const states = await client.nodes.getStates(id);
      if (states.provision_state?.endsWith('failed')) throw new Error(`${states.provision_state}: ${states.last_error}`);
      const settled = states.target_provision_state === null || state.endsWith('wait');
      return states.provision_state === state && settled ? true : undefined;
    },
    { timeoutMs: 60_000, what: `node ${id} to reach ${state}` },
  );
}

describe('ironic-client against the stack', () => {
  const registry = new Registry();
  let client: IronicClient;
  const created: string[] = [];

  beforeAll(async () => {
    client = await connectIronic(clientOptions(registry));
  });

  afterAll(async () => {
    for (const id of created) {
      await client.nodes.setMaintenance(id, { reason: 'test cleanup' }).catch(() => undefined);
      await client.nodes.delete(id).catch(() => undefined);
    }
    client.close();
  });

  it('negotiates the highest microversion the client speaks', () => {
    expect(['1.110', '1.109', '1.95', '1.93', '1.89']).toContain(client.microversion);
    expect(client.features.virtualMediaAttach).toBe(true);
  });

  it('lists the enabled drivers', async () => {
    const names = (await client.drivers.list()).map((driver) => driver.name);
    expect(names).toEqual(expect.arrayContaining(['fake-hardware', 'redfish', 'ipmi']));
  });

  it('takes a node through enroll, inspection, deploy and undeploy', async () => {
    const name = `ironic-client-it~lifecycle-${runId}`;
    const node = await client.nodes.create(fakeNode(name));
    created.push(node.uuid);
    expect(node.provision_state).toBe('enroll');

    const port = await client.ports.create({ address: macFor(1), node_uuid: node.uuid, pxe_enabled: true });
    const found = await client.ports.list({ address: macFor(1), fields: ['uuid', 'node_uuid', 'address'] });
    expect(found.items).toEqual([expect.objectContaining({ uuid: port.uuid, node_uuid: node.uuid })]);

    await client.nodes.setProvisionState(name, { target: 'manage' });
    await waitForState(client, node.uuid, 'manageable');

    await client.nodes.setProvisionState(node.uuid, { target: 'inspect' });
    await waitForState(client, node.uuid, 'inspect wait');
    const inventory = {
      interfaces: [{ name: 'eth0', mac_address: macFor(1), ipv4_address: '192.0.2.10' }],
      cpu: { architecture: 'x86_64', count: 2 },
      memory: { physical_mb: 4096 },
      disks: [{ name: '/dev/sda', size: 10_737_418_240, rotational: false }],
    };
    const continued = await client.agent.continueInspection({ inventory }, { nodeUuid: node.uuid });
    expect(continued.node.uuid).toBe(node.uuid);
    await waitForState(client, node.uuid, 'manageable');
    const stored = await client.nodes.getInventory(node.uuid);
    expect(stored.inventory.cpu?.architecture).toBe('x86_64');

    await client.nodes.setProvisionState(node.uuid, { target: 'provide' });
    await waitForState(client, node.uuid, 'available');
    await client.nodes.update(node.uuid, [
      { op: 'add', path: '/instance_info/image_source', value: `${env.artifactsUrl}/image.qcow2` },
      { op: 'add', path: '/instance_info/image_checksum', value: 'd41d8cd98f00b204e9800998ecf8427e' },
    ]);
    const validation = await client.nodes.validate(node.uuid);
    expect(validation.deploy?.result).toBe(true);

    await client.nodes.setProvisionState(node.uuid, {
      target: 'deploy',
      configdrive: { meta_data: { uuid: node.uuid, name }, user_data: '#cloud-config\n', network_data: {} },
    });
    await waitForState(client, node.uuid, 'active');

    const conflict = await client.nodes.delete(node.uuid).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(IronicConflictError);
    expect((conflict as IronicConflictError).locked).toBe(false);

    await client.nodes.setProvisionState(node.uuid, { target: 'undeploy' });
    await waitForState(client, node.uuid, 'available');
    await client.ports.delete(port.uuid);
    await client.nodes.delete(node.uuid);
    await expect(client.nodes.get(node.uuid)).rejects.toBeInstanceOf(IronicNotFoundError);
  });

  it('returns duplicate names and MACs as permanent conflicts', async () => {
    const name = `ironic-client-it~duplicate-${runId}`;
    const node = await client.nodes.create(fakeNode(name));
    created.push(node.uuid);
    await client.ports.create({ address: macFor(2), node_uuid: node.uuid });

    const sameName = await client.nodes.create(fakeNode(name)).catch((error: unknown) => error);
    expect(sameName).toBeInstanceOf(IronicConflictError);
    expect((sameName as IronicConflictError).faultstring).toMatch(/already exists/);
    const sameMac = await client.ports.create({ address: macFor(2), node_ident: name }).catch((error: unknown) => error);
    expect(sameMac).toBeInstanceOf(IronicConflictError);
    expect((sameMac as IronicConflictError).attempts).toBe(1);
  });

  it('reads node settings Ironic keeps: states, boot device, BIOS, history, vendor methods', async () => {
    const name = `ironic-client-it~settings-${runId}`;
    const node = await client.nodes.create(fakeNode(name));
    created.push(node.uuid);
    await client.nodes.setProvisionState(node.uuid, { target: 'manage' });
    await waitForState(client, node.uuid, 'manageable');

    await client.nodes.setPowerState(node.uuid, { target: 'power on' });
    await waitFor(async () => ((await client.nodes.getStates(node.uuid)).power_state === 'power on' ? true : undefined), {
      timeoutMs: 30_000,
      what: 'power on',
    });
    await client.nodes.setBootDevice(node.uuid, { bootDevice: 'pxe' });
    expect((await client.nodes.getBootDevice(node.uuid)).boot_device).toBe('pxe');
    await client.nodes.setTargetRaidConfig(node.uuid, { logical_disks: [{ size_gb: 'MAX', raid_level: '1', is_root_volume: true }] });
    await client.nodes.setProvisionState(node.uuid, {
      target: 'clean',
      cleanSteps: [{ interface: 'bios', step: 'apply_configuration', args: { settings: [{ name: 'ProcTurboMode', value: 'Disabled' }] } }],
    });
    await waitForState(client, node.uuid, 'manageable');
    const bios = await client.nodes.listBiosSettings(node.uuid, { detail: true });
    expect(bios).toEqual([expect.objectContaining({ name: 'ProcTurboMode', value: 'Disabled' })]);
    expect(await client.nodes.listFirmwareComponents(node.uuid)).toEqual([]);
    expect(Object.keys(await client.nodes.listVendorPassthruMethods(node.uuid))).toContain('third_method_sync');
    const sync = await client.nodes.callVendorPassthru(node.uuid, { method: 'third_method_sync', body: { bar: 'meow' } });
    expect(sync.status).toBe(200);
    await client.nodes.setMaintenance(node.uuid, { reason: 'integration test' });
    expect((await client.nodes.get(node.uuid, { fields: ['maintenance', 'maintenance_reason'] })).maintenance_reason).toBe('integration test');
    await client.nodes.unsetMaintenance(node.uuid);
    expect((await client.nodes.listHistory(node.uuid)).items).toEqual(expect.any(Array));
  });

  it('counts every Ironic call on the registry it was given', async () => {
    const metric = await registry.getSingleMetric(REQUESTS_TOTAL)?.get();
    const total = metric?.values.reduce((sum, value) => sum + value.value, 0) ?? 0;
    expect(total).toBeGreaterThan(10);
    expect(metric?.values.some((value) => value.labels.route === '/v1/nodes/{node_ident}/states/provision')).toBe(true);
  });
});
