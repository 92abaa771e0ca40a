import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { AgentError } from './agent-errors.ts';
import type { SerializedCommand } from './agent.ts';
import { HARDWARE_MANAGER_VERSIONS } from './commands/step-lists.ts';
import { testAgent, testSystem } from './test-support/agent.ts';
import { startTestServer, type TestHttpServer } from './test-support/http-server.ts';

const node = { uuid: 'node-uuid-1', properties: {}, instance_info: {} };

async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected the command to be refused');
}

describe('command dispatch', () => {
  it('refuses unknown extensions, commands and malformed names the way IPA does', async () => {
    const { agent } = testAgent();
    const noExtension = await rejection(agent.execute('nope.get_clean_steps', {}));
    expect([noExtension.code, noExtension.message]).toEqual([404, 'Not found: Extension with id nope not found.']);
    const noCommand = await rejection(agent.execute('clean.dance', {}));
    expect([noCommand.code, noCommand.message]).toEqual([400, 'Invalid command: Unknown command: dance']);
    const malformed = await rejection(agent.execute('clean', {}));
    expect(malformed.message).toBe('Invalid command: Command name must be of the form <extension>.<name>');
    expect(agent.listCommands()).toEqual([]);
  });

  it('answers sync commands in the reply', async () => {
    const { agent } = testAgent();
    const result = await agent.execute('clean.get_clean_steps', { node, ports: [] });
    expect(result.command_name).toBe('get_clean_steps');
    expect(result.command_status).toBe('SUCCEEDED');
    const answer = result.command_result as { clean_steps: Record<string, { step: string; priority: number }[]> };
    expect(answer).toMatchObject({ hardware_manager_version: HARDWARE_MANAGER_VERSIONS });
    const steps = Object.values(answer.clean_steps).flat();
    expect(steps).toContainEqual(expect.objectContaining({ step: 'erase_devices', priority: 10, interface: 'deploy' }));
    expect(steps).toContainEqual(expect.objectContaining({ step: 'erase_devices_metadata', priority: 99 }));
    expect(agent.listCommands()).toEqual([result]);
  });

  it('runs async commands in the background: RUNNING, busy, then SUCCEEDED with a forced heartbeat', async () => {
    const { agent, records, finishedCommands } = testAgent({ commandDelayMs: 50 });
    const step = { step: 'erase_devices_metadata', interface: 'deploy', priority: 99 };
    const started = await agent.execute('clean.execute_clean_step', {
      step, node, ports: [], clean_version: HARDWARE_MANAGER_VERSIONS,
    });
    expect(started.command_status).toBe('RUNNING');
    const busy = await rejection(agent.execute('clean.get_clean_steps', { node, ports: [] }));
    expect([busy.code, busy.message]).toEqual([409, 'Agent is busy: executing command execute_clean_step']);
    const done = (await agent.waitFor(started.id)) as SerializedCommand;
    expect(done.command_status).toBe('SUCCEEDED');
    expect(done.command_result).toEqual({ clean_result: null, clean_step: step });
    expect(finishedCommands()).toBe(1);
    const wipes = records.get(testSystem().uuid)?.diskWipes ?? [];
    expect(wipes.map((wipe) => [wipe.device, wipe.method, wipe.step, wipe.nodeUuid])).toEqual([
      ['/dev/sda', 'metadata', 'erase_devices_metadata', 'node-uuid-1'],
      ['/dev/sdb', 'metadata', 'erase_devices_metadata', 'node-uuid-1'],
      ['/dev/nvme0n1', 'metadata', 'erase_devices_metadata', 'node-uuid-1'],
    ]);
  });

  it('erases every disk not in the skip list with erase_devices', async () => {
    const { agent, records, diskEvents } = testAgent();
    const skipping = { ...node, properties: { skip_block_devices: [{ name: '/dev/sdb' }] } };
    const result = await agent.execute(
      'clean.execute_clean_step',
      { step: { step: 'erase_devices', interface: 'deploy', priority: 10 }, node: skipping, ports: [] },
      { wait: true },
    );
    expect(result.command_result).toMatchObject({ clean_result: { '/dev/sda': null, '/dev/nvme0n1': null } });
    const wipes = records.get(testSystem().uuid)?.diskWipes ?? [];
    expect(wipes.map((wipe) => `${wipe.device}:${wipe.method}`)).toEqual(['/dev/sda:shred', '/dev/nvme0n1:nvme-format']);
    // The installed OS hears of each wipe (it loses its Node when its disk goes).
    expect(diskEvents).toEqual([{ kind: 'wiped', device: '/dev/sda' }, { kind: 'wiped', device: '/dev/nvme0n1' }]);
  });

  it('reports a hardware manager version mismatch with IPA\'s status', async () => {
    const { agent } = testAgent();
    const result = await agent.execute(
      'clean.execute_clean_step',
      { step: { step: 'erase_devices', interface: 'deploy' }, node, ports: [], clean_version: { generic_hardware_manager: '0.9' } },
      { wait: true },
    );
    expect(result.command_status).toBe('CLEAN_VERSION_MISMATCH');
    expect(result.command_error).toMatchObject({ type: 'VersionMismatch' });
  });

  it('offers the custom hardware manager\'s deploy step and records it when Ironic runs it', async () => {
    const { agent, records } = testAgent();
    const listed = await agent.execute('deploy.get_deploy_steps', { node, ports: [] });
    const answer = listed.command_result as { deploy_steps: Record<string, { step: string; priority: number; interface: string }[]> };
    expect(answer.deploy_steps['CustomDeployHardwareManager']).toEqual([
      { step: 'install_coreos', priority: 0, interface: 'deploy', reboot_requested: false },
    ]);
    const step = { step: 'install_coreos', interface: 'deploy', priority: 80, args: { channel: 'stable' } };
    const result = await agent.execute(
      'deploy.execute_deploy_step',
      { step, node, ports: [], deploy_version: HARDWARE_MANAGER_VERSIONS },
      { wait: true },
    );
    expect(result.command_status).toBe('SUCCEEDED');
    expect(result.command_result).toEqual({ deploy_result: null, deploy_step: step });
    const system = records.get(testSystem().uuid);
    expect(system?.customDeploySteps).toEqual([
      { at: expect.any(String), nodeUuid: 'node-uuid-1', step: 'install_coreos', args: { channel: 'stable' }, device: '/dev/sda' },
    ]);
    expect(system?.imageWrites).toEqual([]);
  });

  it('fails unknown steps as a command failure, not an HTTP error', async () => {
    const { agent } = testAgent();
    const result = await agent.execute(
      'deploy.execute_deploy_step',
      { step: { step: 'levitate', interface: 'deploy' }, node, ports: [] },
      { wait: true },
    );
    expect(result.command_status).toBe('FAILED');
    expect(result.command_error).toEqual({
      type: 'HardwareManagerMethodNotFound',
      code: 500,
      message: 'No HardwareManager found to handle method',
      details: 'Could not find method: levitate',
    });
  });

  it('powers the server off through its BMC on standby.power_off, and answers the other standby commands', async () => {
    const { agent, powerActions } = testAgent();
    expect((await agent.execute('standby.get_partition_uuids', {})).command_result).toEqual({});
    expect((await agent.execute('standby.sync', {})).command_result).toBeNull();
    const off = await agent.execute('standby.power_off', {}, { wait: true });
    expect(off.command_status).toBe('SUCCEEDED');
    expect(powerActions).toEqual(['off']);
  });

  it('returns gzipped tarball logs and the inventory', async () => {
    const { agent } = testAgent();
    const logs = (await agent.execute('log.collect_system_logs', {})).command_result as { system_logs: string };
    expect(Buffer.from(logs.system_logs, 'base64').subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const info = (await agent.execute('poll.get_hardware_info', {})).command_result as { cpu: unknown };
    expect(info.cpu).toMatchObject({ architecture: 'x86_64' });
  });
});

describe('write_image deploy step', () => {
  const image = Buffer.from('disk image bytes '.repeat(4096));
  const sha256 = createHash('sha256').update(image).digest('hex');
  let server: TestHttpServer;
  beforeAll(async () => {
    server = await startTestServer({
      '/os.img': { body: image },
      // An OCI registry's blob: only with the Authorization header Ironic passed on.
      '/v2/os/blobs/blob': (request) =>
        request.headers.authorization === 'Basic cm9ib3Q6cHc=' ? { body: image } : { status: 401, body: 'unauthorized' },
    });
  });
  afterAll(() => server.close());

  const writeImage = (imageInfo: Record<string, unknown>, configdrive: string | null, stepNode: object = node) => ({
    step: { step: 'write_image', interface: 'deploy', args: { image_info: imageInfo, configdrive } },
    node: stepNode,
    ports: [],
  });

  it('downloads, verifies and records the image and config drive on the root disk', async () => {
    const { agent, records, diskEvents } = testAgent();
    const configdrive = gzipSync(Buffer.from('config-2 iso')).toString('base64');
    const result = await agent.execute(
      'deploy.execute_deploy_step',
      writeImage({ id: 'os.img', urls: [`${server.url}/os.img`], checksum: sha256, disk_format: 'raw' }, configdrive),
      { wait: true },
    );
    expect(result.command_status).toBe('SUCCEEDED');
    const deployResult = (result.command_result as { deploy_result: { result: string } }).deploy_result.result;
    expect(deployResult).toMatch(/^prepare_image: image \(os\.img\) written to device \/dev\/sda root_uuid=0x[0-9a-f]{8}$/);
    const written = records.get(testSystem().uuid)?.imageWrites[0];
    expect(written).toMatchObject({
      outcome: 'written',
      nodeUuid: 'node-uuid-1',
      url: `${server.url}/os.img`,
      device: '/dev/sda',
      bytes: image.length,
      diskFormat: 'raw',
      imageType: 'whole-disk',
      checksum: { algorithm: 'sha256', expected: sha256, actual: sha256, source: 'checksum' },
      configDrive: { written: true, bytes: 'config-2 iso'.length, source: 'inline' },
    });
    // Not an ISO, so the installed OS gets no meta or user data from it.
    expect(diskEvents).toEqual([{ kind: 'written', image: { device: '/dev/sda', url: `${server.url}/os.img`, nodeUuid: 'node-uuid-1', configDrive: undefined } }]);
    const uuids = await agent.execute('standby.get_partition_uuids', {});
    expect(uuids.command_result).toEqual({ 'root uuid': expect.stringMatching(/^0x[0-9a-f]{8}$/) });
  });

  it('downloads with the Authorization header Ironic passes for an OCI registry, and records that it did', async () => {
    const { agent, records } = testAgent();
    const authorization = Buffer.from('Basic cm9ib3Q6cHc=').toString('base64');
    const result = await agent.execute(
      'deploy.execute_deploy_step',
      writeImage({ id: 'blob', urls: [`${server.url}/v2/os/blobs/blob`], checksum: sha256, image_request_authorization: authorization }, null),
      { wait: true },
    );
    expect(result.command_status).toBe('SUCCEEDED');
    const written = records.get(testSystem().uuid)?.imageWrites[0];
    expect(written).toMatchObject({ outcome: 'written', requestAuthorization: true, bytes: image.length });
    expect(JSON.stringify(written)).not.toContain('cm9ib3Q6cHc');
    // Another boot of the ramdisk (nothing cached), this time without the header.
    const other = testAgent();
    const refused = await other.agent.execute(
      'deploy.execute_deploy_step',
      writeImage({ id: 'blob', urls: [`${server.url}/v2/os/blobs/blob`], checksum: sha256 }, null),
      { wait: true },
    );
    expect(refused.command_error).toMatchObject({ type: 'ImageDownloadFatalError' });
    expect(other.records.get(testSystem().uuid)?.imageWrites[0]).toMatchObject({ outcome: 'failed', requestAuthorization: false });
  });

  it('writes to the disk the root device hints select', async () => {
    const { agent, records } = testAgent();
    const hinted = { ...node, instance_info: { root_device: { rotational: true } } };
    await agent.execute(
      'deploy.execute_deploy_step',
      writeImage({ id: 'os.img', urls: [`${server.url}/os.img`], checksum: sha256 }, null, hinted),
      { wait: true },
    );
    expect(records.get(testSystem().uuid)?.imageWrites[0]).toMatchObject({ device: '/dev/sdb', configDrive: { written: false } });
  });

  it('fails the command with IPA\'s checksum error and records the failed write', async () => {
    const { agent, records } = testAgent();
    const result = await agent.execute(
      'deploy.execute_deploy_step',
      writeImage({ id: 'os.img', urls: [`${server.url}/os.img`], checksum: 'a'.repeat(64) }, null),
      { wait: true },
    );
    expect(result.command_status).toBe('FAILED');
    expect(result.command_error).toMatchObject({ type: 'ImageChecksumError', message: 'Error verifying image checksum' });
    expect(records.get(testSystem().uuid)?.imageWrites[0]).toMatchObject({
      outcome: 'failed',
      error: expect.stringContaining(`verification checksum: ${sha256}`),
    });
  });

  it('fails the command when the image URL is dead', async () => {
    const { agent } = testAgent();
    const result = await agent.execute(
      'deploy.execute_deploy_step',
      writeImage({ id: 'gone.img', urls: [`${server.url}/gone.img`], checksum: sha256 }, null),
      { wait: true },
    );
    expect(result.command_status).toBe('FAILED');
    expect(result.command_error).toMatchObject({ type: 'ImageDownloadFatalError' });
  });

  it('rejects image_info without a usable checksum as invalid parameters', async () => {
    const { agent } = testAgent();
    const refused = await rejection(agent.execute('standby.prepare_image', { image_info: { id: 'x', urls: ['http://x/y'] } }));
    expect([refused.code, refused.type]).toEqual([400, 'InvalidCommandParamsError']);
    const inStep = await agent.execute(
      'deploy.execute_deploy_step',
      writeImage({ id: 'x', urls: ['http://x/y'] }, null),
      { wait: true },
    );
    expect(inStep.command_error).toMatchObject({ type: 'InvalidCommandParamsError' });
  });

  it('fails on a config drive that is not base64 gzip', async () => {
    const { agent } = testAgent();
    const result = await agent.execute(
      'deploy.execute_deploy_step',
      writeImage({ id: 'os.img', urls: [`${server.url}/os.img`], checksum: sha256 }, 'not base64!'),
      { wait: true },
    );
    expect(result.command_error).toMatchObject({
      type: 'DeploymentError',
      details: expect.stringContaining('is not base64 encoded'),
    });
  });
});
