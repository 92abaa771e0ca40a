import { describe, expect, it } from '@jest/globals';
import { ironicError, lockedError, makeNode, makePort, NODE_UUID } from '../../../ironic-client/test-support/fixtures.ts';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import type { RegisterOptions } from '../provisioner.ts';
import { NeedsPreprovisioningImageError, TransientProvisionerError } from '../result.ts';
import { FakeClock } from '../../runtime/testing/fake-clock.ts';
import { BOOT_MAC, HOST, KERNEL_URL, NEW_HOST, NODE_PATH, RAMDISK_URL, redfishBmc, startKit } from './testing/ironic-test-kit.ts';

useNock();

const bmc = redfishBmc();
const credentials = { username: 'admin', password: 'secret-pw' };
const NAME_PATH = '/v1/nodes/metal3~worker-0';

function registerOptions(overrides: Partial<RegisterOptions> = {}): RegisterOptions {
  return {
    host: HOST,
    bmc,
    credentials,
    bootMacAddress: BOOT_MAC,
    bootMode: 'UEFI',
    architecture: 'x86_64',
    credentialsChanged: false,
    retryAfterFailure: false,
    automatedCleaningMode: 'metadata',
    disablePowerOff: false,
    knownMacAddresses: [],
    inspectionDisabled: false,
    ...overrides,
  };
}

/** A node exactly as registration leaves it, so nothing needs patching. */
function registeredNode(overrides: Parameters<typeof makeNode>[0] = {}) {
  return makeNode({
    driver_info: {
      redfish_address: 'http://bmc.test:8000',
      redfish_system_id: '/redfish/v1/Systems/1',
      redfish_username: 'admin',
      redfish_password: '******',
      deploy_kernel: KERNEL_URL,
      deploy_ramdisk: RAMDISK_URL,
    },
    properties: { cpu_arch: 'x86_64', capabilities: 'boot_mode:uefi' },
    ...overrides,
  });
}

/** Every port, listed once for all hosts whose record of their node's ports is missing or expired. */
const listedPorts = '/v1/ports?fields=address,node_uuid';
const macPorts = `/v1/ports?address=${BOOT_MAC}&fields=uuid,node_uuid,address`;

describe('register', () => {
  it('creates a missing node with its boot port, then asks Ironic to manage it', async () => {
    const kit = await startKit();
    kit.ironic.get(NAME_PATH).reply(404, ironicError('Node metal3~worker-0 could not be found.'));
    kit.ironic.get('/v1/nodes/worker-0').reply(404, ironicError('Node worker-0 could not be found.'));
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [] });
    kit.ironic.post('/v1/nodes').reply(201, makeNode({ provision_state: 'enroll', driver_info: {} }));
    kit.ironic.post('/v1/ports').reply(201, makePort());
    kit.ironic.post('/v1/ports').reply(201, makePort({ address: 'aa:bb:cc:dd:ee:01', pxe_enabled: false }));
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    const result = await kit.provisioner.register(registerOptions({ host: NEW_HOST, knownMacAddresses: ['AA:BB:CC:DD:EE:01', BOOT_MAC] }));

    // The new node is named while it is verified, so the host records it at once, as BMO does.
    // Verifying ends with a change the node sweep sees, so the host may leave its wait to the sweep.
    expect(result).toEqual({ kind: 'busy', afterMs: 3000, reason: expect.stringContaining('"manage" requested'), nodeId: NODE_UUID, awaitsNodeChange: true });
    expect(kit.calls()).toEqual([
      `GET ${NAME_PATH}`,
      'GET /v1/nodes/worker-0',
      `GET ${macPorts}`,
      'POST /v1/nodes',
      'POST /v1/ports',
      'POST /v1/ports',
      `PUT ${NODE_PATH}/states/provision manage`,
    ]);
    expect(kit.requests[3]?.body).toEqual({
      name: 'metal3~worker-0',
      driver: 'redfish',
      driver_info: {
        redfish_address: 'http://bmc.test:8000',
        redfish_system_id: '/redfish/v1/Systems/1',
        redfish_username: 'admin',
        redfish_password: 'secret-pw',
        deploy_kernel: KERNEL_URL,
        deploy_ramdisk: RAMDISK_URL,
      },
      boot_interface: 'ipxe',
      firmware_interface: 'redfish',
      raid_interface: 'redfish',
      inspect_interface: 'agent',
      automated_clean: true,
      disable_power_off: false,
      properties: { capabilities: 'boot_mode:uefi', cpu_arch: 'x86_64' },
    });
    expect(kit.requests.slice(4, 6).map((request) => request.body)).toEqual([
      { node_uuid: NODE_UUID, address: 'aa:bb:cc:dd:ee:01', pxe_enabled: false },
      { node_uuid: NODE_UUID, address: BOOT_MAC, pxe_enabled: true },
    ]);
  });

  it('creates a test-only fake-hardware node with the fake deploy interface it asks for', async () => {
    const kit = await startKit();
    kit.ironic.get(NAME_PATH).reply(404, ironicError('Node metal3~worker-0 could not be found.'));
    kit.ironic.get('/v1/nodes/worker-0').reply(404, ironicError('Node worker-0 could not be found.'));
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [] });
    kit.ironic.post('/v1/nodes').reply(201, makeNode({ provision_state: 'enroll', driver_info: {} }));
    kit.ironic.post('/v1/ports').reply(201, makePort());
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.register(registerOptions({ host: NEW_HOST, bmc: redfishBmc('fake-hardware://bench-1') }));

    expect(kit.requests[3]?.body).toMatchObject({
      driver: 'fake-hardware',
      driver_info: { deploy_kernel: KERNEL_URL, deploy_ramdisk: RAMDISK_URL },
      boot_interface: 'fake',
      deploy_interface: 'fake',
      management_interface: 'fake',
      power_interface: 'fake',
    });
  });

  describe('a new host while the node sweep lists every node', () => {
    const listed = (name: string | null) => ({
      uuid: '00000000-0000-4000-8000-000000000009', name, power_state: 'power off', target_power_state: null, provision_state: 'manageable',
      target_provision_state: null, maintenance: false, fault: null, last_error: null, health: 'OK', links: [],
    });

    it('asks Ironic only for its boot MAC when the last list shows none of its names', async () => {
      const kit = await startKit();
      kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed('metal3~worker-1'), listed(null)] });
      kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [] });
      kit.ironic.post('/v1/nodes').reply(201, makeNode({ provision_state: 'enroll', driver_info: {} }));
      kit.ironic.post('/v1/ports').reply(201, makePort());
      kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

      await kit.provisioner.nodeDigests();
      const result = await kit.provisioner.register(registerOptions({ host: NEW_HOST }));

      expect(result).toMatchObject({ kind: 'busy', nodeId: NODE_UUID });
      expect(kit.calls().slice(1)).toEqual([`GET ${macPorts}`, 'POST /v1/nodes', 'POST /v1/ports', `PUT ${NODE_PATH}/states/provision manage`]);
    });

    it('looks its names up when the list shows one of them', async () => {
      const kit = await startKit();
      kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [listed('worker-0')] });
      kit.ironic.get(NAME_PATH).reply(404, ironicError('Node metal3~worker-0 could not be found.'));
      kit.ironic.get('/v1/nodes/worker-0').reply(200, registeredNode({ name: 'worker-0' }));
      kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [] });
      kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
      kit.ironic.patch(NODE_PATH).reply(200, registeredNode());

      await kit.provisioner.nodeDigests();
      const result = await kit.provisioner.register(registerOptions({ host: NEW_HOST }));

      expect(result).toEqual({ kind: 'done', value: { nodeId: NODE_UUID } });
      expect(kit.calls()).toContain('GET /v1/nodes/worker-0');
      expect(kit.calls()).not.toContain('POST /v1/nodes');
    });

    it('after Ironic refused to create its node, looks its names up instead of trusting a list begun before', async () => {
      const kit = await startKit();
      kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [] });
      kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [] });
      // Someone else created a node by this name after the list.
      kit.ironic.post('/v1/nodes').reply(409, ironicError('A node with name metal3~worker-0 already exists.'));
      kit.ironic.get(NAME_PATH).reply(200, registeredNode());
      kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });

      await kit.provisioner.nodeDigests();
      const refused = await kit.provisioner.register(registerOptions({ host: NEW_HOST }));
      const found = await kit.provisioner.register(registerOptions({ host: NEW_HOST }));

      expect(refused.kind).toBe('busy');
      expect(found).toEqual({ kind: 'done', value: { nodeId: NODE_UUID } });
      expect(kit.calls().slice(1)).toEqual([`GET ${macPorts}`, 'POST /v1/nodes', `GET ${NAME_PATH}`, `GET ${listedPorts}`]);
    });
  });

  it('finds its node by name after a restart and creates nothing', async () => {
    const kit = await startKit();
    kit.ironic.get(NAME_PATH).reply(200, registeredNode());
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });

    const result = await kit.provisioner.register(registerOptions({ host: NEW_HOST }));

    expect(result).toEqual({ kind: 'done', value: { nodeId: NODE_UUID } });
    expect(kit.calls()).toEqual([`GET ${NAME_PATH}`, `GET ${listedPorts}`]);
  });

  it('asks for a new host\'s node by its old name and by its boot MAC at once', async () => {
    const kit = await startKit();
    // Each of the two answers waits until both questions have arrived: asked one after the
    // other, the first would never be answered.
    let asked = 0;
    let allAsked: () => void = () => {};
    const everyoneAsked = new Promise<void>((resolve) => {
      allAsked = resolve;
    });
    const answerOnceAllAsked = (status: number, body: unknown) => async () => {
      asked += 1;
      if (asked === 2) allAsked();
      await everyoneAsked;
      return [status, body] as [number, unknown];
    };
    kit.ironic.get(NAME_PATH).reply(404, ironicError('Node metal3~worker-0 could not be found.'));
    kit.ironic.get('/v1/nodes/worker-0').reply(answerOnceAllAsked(404, ironicError('Node worker-0 could not be found.')));
    kit.ironic.get('/v1/ports').query(true).reply(answerOnceAllAsked(200, { ports: [] }));
    kit.ironic.post('/v1/nodes').reply(201, makeNode({ provision_state: 'enroll', driver_info: {} }));
    kit.ironic.post('/v1/ports').reply(201, makePort());
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    const result = await kit.provisioner.register(registerOptions({ host: NEW_HOST }));

    expect(result.kind).toBe('busy');
    expect(kit.calls().slice(0, 4)).toEqual([`GET ${NAME_PATH}`, 'GET /v1/nodes/worker-0', `GET ${macPorts}`, 'POST /v1/nodes']);
  });

  it('goes by the old name when the MAC look-up asked beside it fails, and by that failure when no name matches', async () => {
    const found = await startKit();
    found.ironic.get(NAME_PATH).reply(404, ironicError('Node metal3~worker-0 could not be found.'));
    found.ironic.get('/v1/nodes/worker-0').reply(200, registeredNode({ name: 'worker-0' }));
    found.ironic.get('/v1/ports').query({ address: BOOT_MAC.toLowerCase(), fields: 'uuid,node_uuid,address' }).reply(500, ironicError('database gone'));
    found.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
    found.ironic.patch(NODE_PATH).reply(200, registeredNode());
    expect(await found.provisioner.register(registerOptions({ host: NEW_HOST }))).toEqual({ kind: 'done', value: { nodeId: NODE_UUID } });
    expect(found.calls().at(-1)).toMatch(/^PATCH \/v1\/nodes\/\S+ (add|replace) \/name$/);

    const absent = await startKit();
    absent.ironic.get(NAME_PATH).reply(404, ironicError('Node metal3~worker-0 could not be found.'));
    absent.ironic.get('/v1/nodes/worker-0').reply(404, ironicError('Node worker-0 could not be found.'));
    absent.ironic.get('/v1/ports').query(true).reply(500, ironicError('database gone'));
    await expect(absent.provisioner.register(registerOptions({ host: NEW_HOST }))).rejects.toThrow(/failed to look up ports with MAC/);
    expect(absent.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('reads only the node when nothing changed and the ports are known', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).times(2).reply(200, registeredNode());
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });

    await kit.provisioner.register(registerOptions());
    const again = await kit.provisioner.register(registerOptions());

    expect(again).toEqual({ kind: 'done', value: { nodeId: NODE_UUID } });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${listedPorts}`, `GET ${NODE_PATH}`]);
  });

  it('puts the ramdisk network data on the node when it differs, and nothing when it is the same (BMO without a PreprovisioningImage builder)', async () => {
    const networkData = { links: [{ id: 'enp1s0', type: 'phy', ethernet_mac_address: BOOT_MAC }], networks: [], services: [] };
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, registeredNode());
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
    kit.ironic.patch(NODE_PATH).reply(200, registeredNode({ network_data: networkData }));
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ network_data: networkData }));

    await kit.provisioner.register(registerOptions({ ramdiskNetworkData: networkData }));
    expect(kit.requests.find((request) => request.method === 'PATCH')?.body).toEqual([{ op: 'add', path: '/network_data', value: networkData }]);
    await kit.provisioner.register(registerOptions({ ramdiskNetworkData: networkData }));
    expect(kit.calls().filter((call) => call.startsWith('PATCH'))).toHaveLength(1);
  });

  it('checks the ports of hosts with no record of them against one list that every host shares', async () => {
    const kit = await startKit();
    const otherUuid = '5c0c2a8e-0d55-4c4f-9a8e-2f6d3a1b7e90';
    const otherMac = '52:54:00:ab:cd:ef';
    kit.ironic.get(NODE_PATH).reply(200, registeredNode());
    kit.ironic.get(`/v1/nodes/${otherUuid}`).reply(200, registeredNode({ uuid: otherUuid, name: 'metal3~worker-1' }));
    kit.ironic
      .get('/v1/ports')
      .query({ fields: 'address,node_uuid' })
      .reply(200, { ports: [makePort(), makePort({ uuid: 'f2b5e0c4-1a2b-4c3d-8e9f-0a1b2c3d4e5f', node_uuid: otherUuid, address: otherMac })] });

    await Promise.all([
      kit.provisioner.register(registerOptions()),
      kit.provisioner.register(registerOptions({ host: { ...HOST, name: 'worker-1', uid: 'a7d1c6e2-3b4f-4e5a-9c8d-7e6f5a4b3c2d', nodeId: otherUuid }, bootMacAddress: otherMac })),
    ]);

    // Both boot ports are on the list: nothing is created, and the list is asked for once.
    expect(kit.calls().sort()).toEqual([`GET ${NODE_PATH}`, `GET ${listedPorts}`, `GET /v1/nodes/${otherUuid}`].sort());
  });

  it('asks for the node\'s own ports when its record lacks a MAC found since, which a shared list begun earlier could miss', async () => {
    const kit = await startKit();
    const inspectedMac = 'aa:bb:cc:dd:ee:01';
    kit.ironic.get(NODE_PATH).times(2).reply(200, registeredNode());
    kit.ironic.get('/v1/ports').query({ fields: 'address,node_uuid' }).reply(200, { ports: [makePort()] });
    kit.ironic
      .get('/v1/ports')
      .query({ node_uuid: NODE_UUID, fields: 'uuid,address,node_uuid' })
      .reply(200, { ports: [makePort(), makePort({ uuid: 'f2b5e0c4-1a2b-4c3d-8e9f-0a1b2c3d4e5f', address: inspectedMac })] });

    await kit.provisioner.register(registerOptions());
    await kit.provisioner.register(registerOptions({ knownMacAddresses: [inspectedMac] }));

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${listedPorts}`, `GET ${NODE_PATH}`, `GET /v1/ports?node_uuid=${NODE_UUID}&fields=uuid,address,node_uuid`]);
  });

  it('adopts a nameless node found by its boot MAC and names it', async () => {
    const kit = await startKit();
    kit.ironic.get(NAME_PATH).reply(404, ironicError('not found'));
    kit.ironic.get('/v1/nodes/worker-0').reply(404, ironicError('not found'));
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [{ uuid: makePort().uuid, node_uuid: NODE_UUID, address: BOOT_MAC }] });
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ name: null }));
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
    kit.ironic.patch(NODE_PATH).reply(200, registeredNode());

    const result = await kit.provisioner.register(registerOptions({ host: NEW_HOST }));

    expect(result).toEqual({ kind: 'done', value: { nodeId: NODE_UUID } });
    expect(kit.calls()).toEqual([
      `GET ${NAME_PATH}`,
      'GET /v1/nodes/worker-0',
      `GET ${macPorts}`,
      `GET ${NODE_PATH}`,
      `GET ${listedPorts}`,
      `PATCH ${NODE_PATH} add /name`,
    ]);
  });

  it('refuses a boot MAC that belongs to another host', async () => {
    const kit = await startKit();
    kit.ironic.get(NAME_PATH).reply(404, ironicError('not found'));
    kit.ironic.get('/v1/nodes/worker-0').reply(404, ironicError('not found'));
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [{ uuid: makePort().uuid, node_uuid: NODE_UUID, address: BOOT_MAC }] });
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ name: 'other~host' }));

    const result = await kit.provisioner.register(registerOptions({ host: NEW_HOST }));

    expect(result).toEqual({ kind: 'failed', message: `MAC address ${BOOT_MAC} conflicts with existing node other~host` });
    expect(kit.calls()).not.toContain('POST /v1/nodes');
  });

  it('reports why Ironic could not verify an enrolled node', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ provision_state: 'enroll', last_error: 'Redfish connection failed: 401 Unauthorized' }));
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });

    const result = await kit.provisioner.register(registerOptions());

    expect(result).toEqual({ kind: 'failed', message: 'Redfish connection failed: 401 Unauthorized' });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${listedPorts}`]);
  });

  it('sends new credentials and retries manage when they changed', async () => {
    const kit = await startKit();
    const enrolled = registeredNode({ provision_state: 'enroll', last_error: 'Redfish connection failed: 401 Unauthorized' });
    kit.ironic.get(NODE_PATH).reply(200, enrolled);
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
    kit.ironic.patch(NODE_PATH).reply(200, enrolled);
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    const result = await kit.provisioner.register(registerOptions({ credentialsChanged: true }));

    expect(result).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${listedPorts}`, `PATCH ${NODE_PATH} add /driver_info`, `PUT ${NODE_PATH}/states/provision manage`]);
    expect(kit.requests[2]?.body).toEqual([
      {
        op: 'add',
        path: '/driver_info',
        value: expect.objectContaining({ redfish_password: 'secret-pw', deploy_kernel: KERNEL_URL, redfish_username: 'admin' }),
      },
    ]);
  });

  describe('a new version of the credentials Secret (BMO sends driver_info again for every one)', () => {
    const driverInfoPatches = (calls: string[]) => calls.filter((call) => call === `PATCH ${NODE_PATH} add /driver_info`);

    it('sends nothing when the Secret holds the credentials this process last gave the node (a label or owner reference moved its version)', async () => {
      const kit = await startKit();
      kit.ironic.get(NODE_PATH).times(2).reply(200, registeredNode());
      kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
      kit.ironic.patch(NODE_PATH).reply(200, registeredNode());

      await kit.provisioner.register(registerOptions({ credentialsChanged: true }));
      const result = await kit.provisioner.register(registerOptions({ credentialsChanged: true }));

      expect(result).toEqual({ kind: 'done', value: { nodeId: NODE_UUID } });
      expect(driverInfoPatches(kit.calls())).toHaveLength(1);
    });

    it('sends other credentials, and a node registered again after a restart gets them once', async () => {
      const kit = await startKit();
      kit.ironic.get(NODE_PATH).times(2).reply(200, registeredNode());
      kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
      kit.ironic.patch(NODE_PATH).times(2).reply(200, registeredNode());

      // Nothing remembered yet (a fresh process): the new version is sent.
      await kit.provisioner.register(registerOptions({ credentialsChanged: true }));
      await kit.provisioner.register(registerOptions({ credentialsChanged: true, credentials: { ...credentials, password: 'rotated-pw' } }));

      expect(driverInfoPatches(kit.calls())).toHaveLength(2);
      expect(kit.requests.filter((request) => request.method === 'PATCH').map((request) => (request.body as { value: { redfish_password: string } }[])[0]?.value.redfish_password))
        .toEqual(['secret-pw', 'rotated-pw']);
    });

    it('sends them again to a node that was deleted and made anew', async () => {
      const kit = await startKit();
      kit.ironic.get(NODE_PATH).reply(200, registeredNode());
      kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
      kit.ironic.patch(NODE_PATH).reply(200, registeredNode());
      await kit.provisioner.register(registerOptions({ credentialsChanged: true }));
      kit.ironic.get(NODE_PATH).reply(200, registeredNode());
      kit.ironic.delete(NODE_PATH).reply(204);
      await kit.provisioner.delete({ host: { ...HOST, nodeId: NODE_UUID } });

      kit.ironic.get(NODE_PATH).reply(200, registeredNode());
      kit.ironic.patch(NODE_PATH).reply(200, registeredNode());
      await kit.provisioner.register(registerOptions({ credentialsChanged: true }));

      expect(driverInfoPatches(kit.calls())).toHaveLength(2);
    });
  });

  it('replaces driver_info when the BMC address changed', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, registeredNode());
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
    kit.ironic.patch(NODE_PATH).reply(200, registeredNode());

    await kit.provisioner.register(registerOptions({ bmc: redfishBmc('redfish+http://bmc.test:8000/redfish/v1/Systems/2') }));

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${listedPorts}`, `PATCH ${NODE_PATH} add /driver_info`]);
  });

  it('syncs automated cleaning, boot mode and deploy images in one patch', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ automated_clean: true, driver_info: { redfish_address: 'http://bmc.test:8000', redfish_system_id: '/redfish/v1/Systems/1', redfish_username: 'admin' } }));
    kit.ironic.patch(NODE_PATH).reply(200, registeredNode());

    await kit.provisioner.register(registerOptions({ bootMacAddress: undefined, automatedCleaningMode: 'disabled', bootMode: 'legacy' }));

    expect(kit.calls()).toEqual([
      `GET ${NODE_PATH}`,
      `PATCH ${NODE_PATH} add /driver_info/deploy_kernel, add /driver_info/deploy_ramdisk, add /automated_clean, add /properties/capabilities`,
    ]);
  });

  describe('with a PreprovisioningImage builder (BMO\'s --build-preprov-image)', () => {
    const builder = { provisioner: { preprovisioningImageBuilder: true } };
    const bare = () => registeredNode({ driver_info: { redfish_address: 'http://bmc.test:8000', redfish_system_id: '/redfish/v1/Systems/1', redfish_username: 'admin' } });

    it('does not use the configured images, and a state that boots the ramdisk needs the host\'s image', async () => {
      const kit = await startKit(builder);
      kit.ironic.get(NODE_PATH).times(3).reply(200, bare());
      kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });

      expect(await kit.provisioner.register(registerOptions({ state: 'registering' }))).toEqual({ kind: 'done', value: { nodeId: NODE_UUID } });
      await expect(kit.provisioner.register(registerOptions({ state: 'inspecting' }))).rejects.toThrow(NeedsPreprovisioningImageError);
      // Fast inspection reads the BMC: no ramdisk, no image.
      expect((await kit.provisioner.register(registerOptions({ state: 'inspecting', inspectionMode: 'fast' }))).kind).toBe('done');
      expect(kit.calls().filter((call) => call.startsWith('PATCH'))).toEqual([]);
    });

    it('sends the image\'s kernel, ramdisk and kernel parameters (%default% first)', async () => {
      const kit = await startKit(builder);
      kit.ironic.get(NODE_PATH).reply(200, bare());
      kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
      kit.ironic.patch(NODE_PATH).reply(200, registeredNode());

      const image = { format: 'initrd' as const, imageUrl: 'http://img.test/r', kernelUrl: 'http://img.test/k', extraKernelParams: 'a=1' };
      const result = await kit.provisioner.register(registerOptions({ state: 'inspecting', preprovisioningImage: image }));

      expect(result.kind).toBe('done');
      expect(kit.requests.find((request) => request.method === 'PATCH')?.body).toEqual(expect.arrayContaining([
        { op: 'add', path: '/driver_info/deploy_kernel', value: 'http://img.test/k' },
        { op: 'add', path: '/driver_info/deploy_ramdisk', value: 'http://img.test/r' },
        { op: 'add', path: '/driver_info/kernel_append_params', value: '%default% a=1' },
      ]));
    });
  });

  it('gives a re-registered node of a deployed host its instance_uuid and image before adoption', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ provision_state: 'manageable' }));
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });
    kit.ironic.patch(NODE_PATH).reply(200, registeredNode({ provision_state: 'manageable' }));
    const image = { url: 'http://images.test/os.img', checksum: 'http://images.test/os.img.sha256sum', checksumType: 'sha256' as const, format: 'raw' as const };

    await kit.provisioner.register(registerOptions({ currentImage: image }));

    expect(kit.calls()).toEqual([
      `GET ${NODE_PATH}`,
      `GET ${listedPorts}`,
      `PATCH ${NODE_PATH} add /instance_uuid, add /instance_info/capabilities, add /instance_info/root_device, `
        + 'add /instance_info/image_source, add /instance_info/image_disk_format, add /instance_info/image_os_hash_algo, add /instance_info/image_os_hash_value',
    ]);
    expect(kit.requests[2]?.body).toEqual(expect.arrayContaining([
      { op: 'add', path: '/instance_uuid', value: HOST.uid },
      { op: 'add', path: '/instance_info/image_source', value: image.url },
    ]));
  });

  it.each([
    { state: 'deleting', calls: [`GET ${NODE_PATH}`] },
    { state: 'available', calls: [`GET ${NODE_PATH}`, `GET ${listedPorts}`] },
  ])('leaves the instance of a deprovisioning host alone, its node $state', async ({ state, calls }) => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ provision_state: state }));
    if (state === 'available') kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });

    await kit.provisioner.register(registerOptions({ state: 'deprovisioning', currentImage: { url: 'http://images.test/os.img', checksum: 'abc', checksumType: 'md5' } }));

    expect(kit.calls()).toEqual(calls);
  });

  it('leaves the instance of a host being provisioned to the deployment, which writes it whole', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ provision_state: 'manageable' }));
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });

    await kit.provisioner.register(registerOptions({ state: 'provisioning', currentImage: { url: 'http://images.test/os.img', checksum: 'abc', checksumType: 'md5' } }));

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${listedPorts}`]);
  });

  it('leaves capabilities inspection reordered alone when they already say the boot mode', async () => {
    const kit = await startKit();
    const inspected = 'boot_mode:uefi,cpu_vt:true,cpu_aes:true';
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ provision_state: 'manageable', properties: { cpu_arch: 'x86_64', capabilities: inspected } }));
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });

    await kit.provisioner.register(registerOptions());

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${listedPorts}`]);
  });

  it('leaves the instance of an active node alone', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ provision_state: 'active' }));
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });

    await kit.provisioner.register(registerOptions({ currentImage: { url: 'http://images.test/os.img', checksum: 'abc', checksumType: 'md5' } }));

    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`, `GET ${listedPorts}`]);
  });

  it.each(['servicing', 'service wait', 'service failed'])('leaves a node in %s alone: it is deployed, and Ironic is at work on it', async (state) => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ provision_state: state }));
    // Ports are only looked at where Ironic lets them be added: not while it works on the node.
    if (state === 'service failed') kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [makePort()] });

    const result = await kit.provisioner.register(registerOptions({ currentImage: { url: 'http://images.test/os.img', checksum: 'abc', checksumType: 'md5' } }));

    expect(result.kind).toBe('done');
    expect(kit.calls().filter((call) => call.startsWith('PATCH'))).toEqual([]);
  });

  it('waits while Ironic verifies the BMC', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ provision_state: 'verifying', target_provision_state: 'manageable' }));

    const result = await kit.provisioner.register(registerOptions({ bootMacAddress: undefined }));

    expect(result).toMatchObject({ kind: 'busy', afterMs: 3000 });
    expect(kit.calls()).toEqual([`GET ${NODE_PATH}`]);
  });

  it('re-creates a node Ironic lost, with ports for the NICs inspection found', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(404, ironicError('not found'));
    kit.ironic.get(NAME_PATH).reply(404, ironicError('not found'));
    kit.ironic.get('/v1/nodes/worker-0').reply(404, ironicError('not found'));
    kit.ironic.post('/v1/nodes').reply(201, makeNode({ provision_state: 'enroll' }));
    kit.ironic.post('/v1/ports').times(2).reply(201, makePort());
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);

    await kit.provisioner.register(registerOptions({ bootMacAddress: undefined, knownMacAddresses: ['aa:bb:cc:dd:ee:01', 'aa:bb:cc:dd:ee:02'] }));

    expect(kit.calls()).toEqual([
      `GET ${NODE_PATH}`,
      `GET ${NAME_PATH}`,
      'GET /v1/nodes/worker-0',
      'POST /v1/nodes',
      'POST /v1/ports',
      'POST /v1/ports',
      `PUT ${NODE_PATH}/states/provision manage`,
    ]);
  });

  it('retries shortly when creation conflicts', async () => {
    const kit = await startKit();
    kit.ironic.get(NAME_PATH).reply(404, ironicError('not found'));
    kit.ironic.get('/v1/nodes/worker-0').reply(404, ironicError('not found'));
    kit.ironic.post('/v1/nodes').reply(409, ironicError('A node with name metal3~worker-0 already exists.'));

    const result = await kit.provisioner.register(registerOptions({ host: NEW_HOST, bootMacAddress: undefined }));

    expect(result).toMatchObject({ kind: 'busy', afterMs: 3000 });
  });

  it('throws a transient error while the node stays locked', async () => {
    const kit = await startKit();
    kit.ironic.get(NODE_PATH).reply(200, registeredNode({ automated_clean: false }));
    kit.ironic.patch(NODE_PATH).times(3).reply(409, lockedError());

    await expect(kit.provisioner.register(registerOptions({ bootMacAddress: undefined }))).rejects.toBeInstanceOf(TransientProvisionerError);
  });

  it('records a registration error for an incompatible BMC before calling Ironic', async () => {
    const kit = await startKit();
    const ipmi = redfishBmc('ipmi://192.0.2.1');
    const result = await kit.provisioner.register(registerOptions({ bmc: ipmi, inspectionMode: 'fast' }));
    expect(result).toEqual({ kind: 'failed', message: 'BMC driver ipmi does not support fast (out-of-band) inspection' });
    expect(kit.calls()).toEqual([]);
  });
});

describe('register confirmed from the node list', () => {
  it("takes verifying's end from the list: the pass after manage reads no node", async () => {
    const clock = new FakeClock();
    const kit = await startKit({ provisioner: { clock, nodeCacheTtlMs: 1000, settledCopyMaxAgeMs: undefined } });
    kit.ironic.get(NAME_PATH).reply(404, ironicError('Node metal3~worker-0 could not be found.'));
    kit.ironic.get('/v1/nodes/worker-0').reply(404, ironicError('Node worker-0 could not be found.'));
    kit.ironic.get('/v1/ports').query(true).reply(200, { ports: [] });
    kit.ironic.post('/v1/nodes').reply(201, registeredNode({ provision_state: 'enroll', power_state: null }));
    kit.ironic.post('/v1/ports').reply(201, makePort());
    kit.ironic.put(`${NODE_PATH}/states/provision`).reply(202);
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [{
      uuid: NODE_UUID, name: 'metal3~worker-0', power_state: 'power off', target_power_state: null, provision_state: 'manageable',
      target_provision_state: null, maintenance: false, fault: null, last_error: null, health: 'OK',
    }] });

    await kit.provisioner.register(registerOptions({ host: NEW_HOST }));
    await clock.advance(3_000);
    await kit.provisioner.nodeDigests();
    expect(await kit.provisioner.register(registerOptions())).toEqual({ kind: 'done', value: { nodeId: NODE_UUID } });
    expect(await kit.provisioner.hardwareState({ host: HOST })).toEqual({ poweredOn: false });

    expect(kit.calls().filter((call) => call.startsWith('GET /v1/nodes/'))).toEqual([`GET ${NAME_PATH}`, 'GET /v1/nodes/worker-0']);
  });
});
