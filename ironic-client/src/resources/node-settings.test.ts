// RAID, maintenance and boot device.
import { describe, expect, it } from '@jest/globals';
import { NODE_UUID } from '../../test-support/fixtures.ts';
import { connectTestClient, ironic } from '../../test-support/ironic-mock.ts';
import { useNock } from '../../test-support/nock-lifecycle.ts';

useNock();

describe('nodes: RAID', () => {
  it('stores a target RAID configuration', async () => {
    const { client } = await connectTestClient();
    const config = {
      logical_disks: [
        { size_gb: 'MAX' as const, raid_level: '1' as const, is_root_volume: true, controller: 'software' },
        { size_gb: 100, raid_level: '0' as const, physical_disks: ['sda', 'sdb'] },
      ],
    };
    ironic().put(`/v1/nodes/${NODE_UUID}/states/raid`, config).reply(204);
    await client.nodes.setTargetRaidConfig(NODE_UUID, config);
  });

  it('clears it with an empty object', async () => {
    const { client } = await connectTestClient();
    ironic().put(`/v1/nodes/${NODE_UUID}/states/raid`, {}).reply(204);
    await client.nodes.setTargetRaidConfig(NODE_UUID, {});
  });
});

describe('nodes: maintenance', () => {
  it('sets maintenance with a reason', async () => {
    const { client } = await connectTestClient();
    ironic().put(`/v1/nodes/${NODE_UUID}/maintenance`, { reason: 'forcing deletion in baremetal-operator' }).reply(202);
    await client.nodes.setMaintenance(NODE_UUID, { reason: 'forcing deletion in baremetal-operator' });
  });

  it('sets maintenance without a reason', async () => {
    const { client } = await connectTestClient();
    ironic().put(`/v1/nodes/${NODE_UUID}/maintenance`, {}).reply(202);
    await client.nodes.setMaintenance(NODE_UUID);
  });

  it('unsets maintenance', async () => {
    const { client } = await connectTestClient();
    ironic().delete(`/v1/nodes/${NODE_UUID}/maintenance`).reply(202);
    await client.nodes.unsetMaintenance(NODE_UUID);
  });
});

describe('nodes: boot device', () => {
  const path = `/v1/nodes/${NODE_UUID}/management/boot_device`;

  it('sets the boot device', async () => {
    const { client } = await connectTestClient();
    ironic().put(path, { boot_device: 'pxe', persistent: true }).reply(204).put(path, { boot_device: 'cdrom' }).reply(204);
    await client.nodes.setBootDevice(NODE_UUID, { bootDevice: 'pxe', persistent: true });
    await client.nodes.setBootDevice(NODE_UUID, { bootDevice: 'cdrom' });
  });

  it('gets the boot device, possibly unknown', async () => {
    const { client } = await connectTestClient();
    ironic().get(path).reply(200, { boot_device: 'disk', persistent: false }).get(path).reply(200, { boot_device: null, persistent: null });
    expect(await client.nodes.getBootDevice(NODE_UUID)).toEqual({ boot_device: 'disk', persistent: false });
    expect(await client.nodes.getBootDevice(NODE_UUID)).toEqual({ boot_device: null, persistent: null });
  });

  it('lists supported boot devices', async () => {
    const { client } = await connectTestClient();
    ironic().get(`${path}/supported`).reply(200, { supported_boot_devices: ['pxe', 'disk', 'cdrom'] });
    expect(await client.nodes.getSupportedBootDevices(NODE_UUID)).toEqual(['pxe', 'disk', 'cdrom']);
  });
});
