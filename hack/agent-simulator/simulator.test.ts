import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseSimulatorConfig } from './config.ts';
import { silentLogger } from './log.ts';
import { startSimulator, type RunningSimulator } from './simulator.ts';
import { startTestServer, type TestHttpServer } from './test-support/http-server.ts';
import { buildIso, requireMkisofs, IRONIC_UEFI_ARGS } from './test-support/mkisofs.ts';

const SYSTEM = '6f1a2b3c-0000-4000-8000-00000000000a';
const NODE = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const TOKEN = 't'.repeat(43);
const MEDIA_TOKEN = 'm'.repeat(43);
const mkisofs = requireMkisofs();

async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A pretend Ironic (ramdisk endpoints) and a pretend sushy (one system), both on loopback. */
describe('simulator against fake Ironic and sushy', () => {
  let ironic: TestHttpServer;
  let sushy: TestHttpServer;
  let simulator: RunningSimulator;
  let provisionState = 'clean wait';
  let power = 'Off';
  let bootDevice = 'Pxe';
  let nodeReadStatus = 200;
  let inspectionStatus = 202;
  let lookupToken = TOKEN;
  let cdDrive: { Image: string; Inserted: boolean } = { Image: '', Inserted: false };
  let bootIso: Buffer = Buffer.alloc(0);
  const heartbeats: Record<string, string>[] = [];
  const inspections: Record<string, unknown>[] = [];
  const resets: string[] = [];

  beforeAll(async () => {
    ironic = await startTestServer({
      '/v1/lookup': () => ({
        body: JSON.stringify({
          node: { uuid: NODE, properties: {}, instance_info: {}, driver_internal_info: {} },
          config: { agent_token: lookupToken, heartbeat_timeout: 300, agent_md5_checksum_enable: true },
        }),
      }),
      [`/v1/nodes/${NODE}`]: () =>
        nodeReadStatus === 200
          ? { body: JSON.stringify({ provision_state: provisionState }) }
          : { status: nodeReadStatus, body: JSON.stringify({ error_message: '{"faultstring": "nope"}' }) },
      [`/v1/heartbeat/${NODE}`]: (_request, body) => {
        heartbeats.push(JSON.parse(body) as Record<string, string>);
        return { status: 202, body: '' };
      },
      '/v1/continue_inspection': (_request, body) => {
        inspections.push(JSON.parse(body) as Record<string, unknown>);
        return { status: inspectionStatus, body: JSON.stringify({ node: { uuid: NODE }, config: {} }) };
      },
    });
    sushy = await startTestServer({
      [`/redfish/v1/Systems/${SYSTEM}`]: () => ({
        body: JSON.stringify({ PowerState: power, Boot: { BootSourceOverrideTarget: bootDevice } }),
      }),
      [`/redfish/v1/Systems/${SYSTEM}/VirtualMedia/Cd`]: () => ({ body: JSON.stringify({ Id: 'Cd', ...cdDrive }) }),
      '/httpboot/redfish/boot.iso': () => ({ body: bootIso }),
      [`/redfish/v1/Systems/${SYSTEM}/Actions/ComputerSystem.Reset`]: (_request, body) => {
        resets.push((JSON.parse(body) as { ResetType: string }).ResetType);
        return { status: 204, body: '' };
      },
    });
    const config = parseSimulatorConfig({
      listen: { port: 0 },
      ironicUrl: ironic.url,
      redfish: { url: sushy.url },
      bootDelayMs: 0,
      lookupIntervalMs: 20,
      heartbeatIntervalMs: 100,
      minHeartbeatIntervalMs: 0,
      commandDelayMs: 10,
      systems: [{ uuid: SYSTEM, name: 'sim-a', nics: [{ mac: '52:54:00:bb:00:01' }] }],
    });
    simulator = await startSimulator(config, silentLogger());
  });
  afterAll(async () => {
    await simulator.close();
    await ironic.close();
    await sushy.close();
  });

  const notify = (fields: Record<string, unknown>) =>
    fetch(`${simulator.url}/`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ uuid: SYSTEM, name: 'sim-a', nics: [], external_notifier: true, ...fields }),
    });
  const agentUrl = () => `${simulator.url}/agents/${SYSTEM}`;

  it('boots the ramdisk on power on, heartbeats and serves the agent API', async () => {
    const reply = await notify({ power_state: 'Off', boot_device: 'Pxe', pending_power: { power_state: 'On', apply_time: 1 } });
    expect(reply.status).toBe(204);
    power = 'On';
    const first = await eventually(() => heartbeats[0], 'a heartbeat');
    expect(first).toEqual({ callback_url: agentUrl(), agent_token: TOKEN, agent_version: '11.0.0' });

    expect((await fetch(`${agentUrl()}/v1/commands/`)).status).toBe(401);
    const listed = await fetch(`${agentUrl()}/v1/commands/?agent_token=${TOKEN}`);
    expect(await listed.json()).toEqual({ commands: [] });

    const run = await fetch(`${agentUrl()}/v1/commands/?wait=true&agent_token=${TOKEN}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'clean.execute_clean_step', params: { step: { step: 'erase_devices_metadata' }, node: { uuid: NODE }, ports: [] } }),
    });
    expect(await run.json()).toMatchObject({ command_name: 'execute_clean_step', command_status: 'SUCCEEDED' });
    const unknown = await fetch(`${agentUrl()}/v1/commands/?agent_token=${TOKEN}`, {
      method: 'POST',
      body: JSON.stringify({ name: 'clean.nope', params: {} }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ faultcode: 'Client', faultstring: 'Invalid command: Unknown command: nope' });

    const records = (await (await fetch(`${simulator.url}/records/${SYSTEM}`)).json()) as {
      boots: unknown[];
      diskWipes: unknown[];
    };
    expect(records.boots).toEqual([expect.objectContaining({ bootDevice: 'Pxe', into: 'ramdisk' })]);
    expect(records.diskWipes).toHaveLength(3);
  });

  it('powers itself off on standby.power_off and goes silent once the BMC reports off', async () => {
    const off = await fetch(`${agentUrl()}/v1/commands/?wait=true&agent_token=${TOKEN}`, {
      method: 'POST',
      body: JSON.stringify({ name: 'standby.power_off', params: {} }),
    });
    expect(await off.json()).toMatchObject({ command_status: 'SUCCEEDED' });
    expect(resets).toEqual(['ForceOff']);
    await notify({ power_state: 'On', pending_power: { power_state: 'Off', apply_time: 1 } });
    power = 'Off';
    await eventually(async () => {
      const status = (await (await fetch(`${simulator.url}/systems`)).json()) as { systems: { os: string }[] };
      return status.systems[0]?.os === 'off' ? true : undefined;
    }, 'the server to be off');
    // No agent runs there any more: the connection is dropped, as for a dead host.
    await expect(fetch(`${agentUrl()}/v1/commands/?agent_token=${TOKEN}`)).rejects.toThrow();
  });

  it('posts the inventory when the node waits for inspection', async () => {
    provisionState = 'inspect wait';
    await notify({ power_state: 'Off', boot_device: 'Pxe', pending_power: { power_state: 'On', apply_time: 2 } });
    power = 'On';
    const data = await eventually(() => inspections[0], 'inspection data');
    expect(data).toMatchObject({
      inventory: { interfaces: [expect.objectContaining({ mac_address: '52:54:00:bb:00:01' })], hostname: 'sim-a' },
      boot_interface: '52:54:00:bb:00:01',
    });
    expect(ironic.requests).toContain(`POST /v1/continue_inspection?node_uuid=${NODE}`);
    const records = (await (await fetch(`${simulator.url}/records`)).json()) as {
      systems: { inspections: unknown[] }[];
    };
    expect(records.systems[0]?.inspections).toEqual([
      expect.objectContaining({ nodeUuid: NODE, accepted: true, httpStatus: 202 }),
    ]);
  });

  it('boots the installed OS when the boot device is the disk', async () => {
    await notify({ power_state: 'On', pending_power: { power_state: 'Off', apply_time: 3 } });
    power = 'Off';
    await notify({ power_state: 'Off', pending_power: null });
    bootDevice = 'Hdd';
    await notify({ power_state: 'Off', boot_device: 'Hdd', pending_power: { power_state: 'On', apply_time: 4 } });
    power = 'On';
    const status = await eventually(async () => {
      const body = (await (await fetch(`${simulator.url}/systems`)).json()) as { systems: { os: string }[] };
      return body.systems[0]?.os === 'disk' ? body.systems[0] : undefined;
    }, 'a disk boot');
    expect(status).toMatchObject({ os: 'disk', ramdisk: null });
    expect(await (await fetch(`${simulator.url}/healthz`)).json()).toEqual({ status: 'ok', systems: 1 });
  });

  it('without access to the node state, tries inspection first and becomes an agent when Ironic declines', async () => {
    nodeReadStatus = 401;
    inspectionStatus = 404;
    bootDevice = 'Pxe';
    await notify({ power_state: 'On', pending_power: { power_state: 'Off', apply_time: 5 } });
    power = 'Off';
    await notify({ power_state: 'Off', pending_power: null });
    const attemptsBefore = inspections.length;
    const heartbeatsBefore = heartbeats.length;
    await notify({ power_state: 'Off', boot_device: 'Pxe', pending_power: { power_state: 'On', apply_time: 6 } });
    power = 'On';
    await eventually(() => (heartbeats.length > heartbeatsBefore ? true : undefined), 'heartbeats after the declined inspection');
    expect(inspections.length).toBe(attemptsBefore + 1);
    const records = (await (await fetch(`${simulator.url}/records/${SYSTEM}`)).json()) as { inspections: unknown[] };
    expect(records.inspections).toHaveLength(1); // the declined attempt is not an inspection
  });

  const powerOff = async (applyTime: number) => {
    await notify({ power_state: 'On', pending_power: { power_state: 'Off', apply_time: applyTime } });
    power = 'Off';
    await notify({ power_state: 'Off', pending_power: null });
  };

  it('boots the ISO in the virtual CD drive and heartbeats with the token from its kernel command line', async () => {
    await powerOff(7);
    nodeReadStatus = 200;
    provisionState = 'clean wait';
    // Ironic pre-generated the token and put it on the ISO: lookup only says one exists.
    lookupToken = '******';
    bootIso = buildIso(mkisofs, {
      vmlinuz: 'kernel',
      initrd: 'ramdisk',
      'boot/grub/efiboot.img': Buffer.alloc(2048),
      'EFI/BOOT/grub.cfg':
        'set default=0\nmenuentry "boot_partition" {\n' +
        `linux /vmlinuz ir_pub_id=x ipa-api-url=${ironic.url} ipa-agent-token=${MEDIA_TOKEN} boot_method=vmedia --\n` +
        'initrd /initrd\n}\n',
    }, IRONIC_UEFI_ARGS);
    cdDrive = { Image: `${sushy.url}/httpboot/redfish/boot.iso`, Inserted: true };
    bootDevice = 'Cd';
    const before = heartbeats.length;
    await notify({ power_state: 'Off', boot_device: 'Cd', pending_power: { power_state: 'On', apply_time: 8 } });
    power = 'On';
    const heartbeat = await eventually(() => heartbeats.slice(before).at(0), 'a heartbeat from the virtual media ramdisk');
    expect(heartbeat).toEqual({ callback_url: agentUrl(), agent_token: MEDIA_TOKEN, agent_version: '11.0.0' });
    expect((await fetch(`${agentUrl()}/v1/commands/?agent_token=${MEDIA_TOKEN}`)).status).toBe(200);
    expect((await fetch(`${agentUrl()}/v1/commands/?agent_token=******`)).status).toBe(401);
    const records = (await (await fetch(`${simulator.url}/records/${SYSTEM}`)).json()) as { boots: unknown[] };
    expect(records.boots.at(-1)).toMatchObject({
      bootDevice: 'Cd',
      into: 'ramdisk',
      media: {
        url: cdDrive.Image,
        config: '/EFI/BOOT/grub.cfg',
        kernel: '/vmlinuz',
        agentToken: true,
        apiUrl: ironic.url,
        inspectionCallbackUrl: null,
      },
    });
    expect(JSON.stringify(records)).not.toContain(MEDIA_TOKEN);
  });

  it('stays in its firmware when the virtual CD drive is empty', async () => {
    await powerOff(9);
    cdDrive = { Image: '', Inserted: false };
    bootDevice = 'Cd';
    await notify({ power_state: 'Off', boot_device: 'Cd', pending_power: { power_state: 'On', apply_time: 10 } });
    power = 'On';
    const boot = await eventually(async () => {
      const records = (await (await fetch(`${simulator.url}/records/${SYSTEM}`)).json()) as { boots: { error?: string }[] };
      return records.boots.at(-1)?.error === undefined ? undefined : records.boots.at(-1);
    }, 'a failed boot');
    expect(boot).toMatchObject({ bootDevice: 'Cd', into: 'firmware', error: 'the virtual CD drive is empty' });
    const status = (await (await fetch(`${simulator.url}/systems`)).json()) as { systems: { os: string; ramdisk: unknown }[] };
    expect(status.systems[0]).toMatchObject({ os: 'firmware', ramdisk: null });
  });

  it('runs a live ISO from the virtual CD, with no agent', async () => {
    await powerOff(11);
    bootIso = buildIso(mkisofs, {
      vmlinuz: 'kernel',
      initrd: 'ramdisk',
      'boot/grub/efiboot.img': Buffer.alloc(2048),
      'EFI/BOOT/grub.cfg': 'set default=0\nmenuentry "Live OS" {\nlinux /vmlinuz root=live:CDLABEL=LIVE_OS rd.live.image\ninitrd /initrd\n}\n',
    }, IRONIC_UEFI_ARGS);
    cdDrive = { Image: `${sushy.url}/httpboot/redfish/boot.iso`, Inserted: true };
    bootDevice = 'Cd';
    await notify({ power_state: 'Off', boot_device: 'Cd', pending_power: { power_state: 'On', apply_time: 12 } });
    power = 'On';
    const boot = await eventually(async () => {
      const records = (await (await fetch(`${simulator.url}/records/${SYSTEM}`)).json()) as { boots: { into: string }[] };
      return records.boots.at(-1)?.into === 'live-os' ? records.boots.at(-1) : undefined;
    }, 'a live OS boot');
    expect(boot).toMatchObject({ bootDevice: 'Cd', into: 'live-os', media: { url: cdDrive.Image, kernel: '/vmlinuz', agentToken: false } });
    const status = (await (await fetch(`${simulator.url}/systems`)).json()) as { systems: { os: string; ramdisk: unknown }[] };
    expect(status.systems[0]).toMatchObject({ os: 'live-os', ramdisk: null });
  });

  it('answers graceful shutdowns as its software would: shut down, or ignored while a test says so, each recorded', async () => {
    const ask = async () => (await (await fetch(`${simulator.url}/systems/${SYSTEM}/graceful-shutdown`, { method: 'POST', body: '{}' })).json()) as unknown;
    const setOs = (body: unknown) => fetch(`${simulator.url}/systems/${SYSTEM}/os`, { method: 'PUT', body: JSON.stringify(body) });
    expect(await ask()).toEqual({ shutsDown: true });

    const ignoring = await setOs({ ignoresGracefulShutdown: true });
    expect(await ignoring.json()).toMatchObject({ ignoresGracefulShutdown: true, osHealthy: true });
    expect(await ask()).toEqual({ shutsDown: false });
    expect(await (await setOs({ ignoresGracefulShutdown: false })).json()).toMatchObject({ ignoresGracefulShutdown: false });
    expect(await ask()).toEqual({ shutsDown: true });

    const records = (await (await fetch(`${simulator.url}/records/${SYSTEM}`)).json()) as { gracefulShutdowns: unknown[] };
    expect(records.gracefulShutdowns).toEqual([
      expect.objectContaining({ outcome: 'shut-down' }),
      expect.objectContaining({ outcome: 'ignored' }),
      expect.objectContaining({ outcome: 'shut-down' }),
    ]);
    for (const bad of [{}, { ignoresGracefulShutdown: 'yes' }, { healthy: true, other: 1 }]) expect((await setOs(bad)).status).toBe(400);
    expect((await fetch(`${simulator.url}/systems/not-a-system/graceful-shutdown`, { method: 'POST' })).status).toBe(404);
  });

  it('takes an in-place update only for a server with an installed OS, and only a well-formed one', async () => {
    const update = (body: unknown, system = SYSTEM) => fetch(`${simulator.url}/systems/${system}/in-place-update`, { method: 'POST', body: JSON.stringify(body) });
    const noOs = await update({ kubeletVersion: 'v1.35.4' });
    expect(noOs.status).toBe(409);
    expect(await noOs.json()).toEqual({ error: 'no installed OS to update: no image was written to this server\'s disk' });
    for (const bad of [{}, { kubeletVersion: '1.35' }, { imageUrl: 'not a url' }, { kubeletVersion: 'v1.35.4', other: 1 }]) expect((await update(bad)).status).toBe(400);
    expect((await update({ kubeletVersion: 'v1.35.4' }, 'not-a-system')).status).toBe(404);
  });
});
