import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SystemRecords } from './records.ts';

/**
 * Drives one node through Ironic's whole lifecycle against a running Ironic, sushy-tools
 * and agent simulator: enroll -> manageable -> inspect -> available (cleaning) -> active
 * (image + config drive) -> deleted -> available, checking the simulator's records on the way.
 *
 *   node hack/agent-simulator/smoke.ts --ironic http://127.0.0.1:6385 --simulator http://127.0.0.1:9999 \
 *     --redfish http://127.0.0.1:8000 --system <sushy uuid> --mac <nic mac> \
 *     --image http://127.0.0.1:8080/disk.img --checksum http://127.0.0.1:8080/disk.img.sha256sum
 */
export interface SmokeOptions {
  ironicUrl: string;
  ironicAuth?: { username: string; password: string };
  simulatorUrl: string;
  redfishUrl: string;
  systemUuid: string;
  mac: string;
  imageUrl: string;
  /** A checksum value or a checksum file URL. */
  imageChecksum: string;
  /** Per provisioning action. */
  timeoutMs?: number;
  log?: (message: string) => void;
}

export interface SmokeResult {
  nodeUuid: string;
  /** Seconds each step took. */
  timings: Record<string, number>;
}

const API_VERSION = '1.90';
const FAILED_STATES = new Set(['inspect failed', 'clean failed', 'deploy failed', 'error', 'enroll failed']);

function ironicClient(options: SmokeOptions) {
  const base = options.ironicUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'X-OpenStack-Ironic-API-Version': API_VERSION, 'Content-Type': 'application/json' };
  if (options.ironicAuth !== undefined) {
    const { username, password } = options.ironicAuth;
    headers.Authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Ironic ${method} ${path}: HTTP ${response.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
}

/** Runs the lifecycle; throws with Ironic's last_error when a step fails. */
export async function runLifecycleSmoke(options: SmokeOptions): Promise<SmokeResult> {
  const ironic = ironicClient(options);
  const log = options.log ?? (() => {});
  const timeoutMs = options.timeoutMs ?? 300_000;
  const timings: Record<string, number> = {};

  const node = await ironic<{ uuid: string }>('POST', '/v1/nodes', {
    driver: 'redfish',
    name: `smoke-${options.systemUuid}`,
    driver_info: {
      redfish_address: options.redfishUrl,
      redfish_system_id: `/redfish/v1/Systems/${options.systemUuid}`,
    },
  });
  await ironic('POST', '/v1/ports', { address: options.mac, node_uuid: node.uuid, pxe_enabled: true });
  log(`enrolled node ${node.uuid}`);

  const records = async (): Promise<SystemRecords> => {
    const response = await fetch(`${options.simulatorUrl.replace(/\/+$/, '')}/records/${options.systemUuid}`);
    return (await response.json()) as SystemRecords;
  };

  const provision = async (label: string, body: Record<string, unknown>, target: string): Promise<void> => {
    const started = Date.now();
    await ironic('PUT', `/v1/nodes/${node.uuid}/states/provision`, body);
    for (;;) {
      const state = await ironic<{ provision_state: string; target_provision_state: string | null; last_error: string | null }>(
        'GET',
        `/v1/nodes/${node.uuid}?fields=provision_state,target_provision_state,last_error`,
      );
      if (state.provision_state === target && state.target_provision_state === null) break;
      if (FAILED_STATES.has(state.provision_state)) {
        throw new Error(`${label}: node ${node.uuid} went to "${state.provision_state}": ${state.last_error ?? ''}`);
      }
      if (Date.now() - started > timeoutMs) throw new Error(`${label}: still "${state.provision_state}" after ${timeoutMs} ms`);
      await sleep(1000);
    }
    timings[label] = (Date.now() - started) / 1000;
    log(`${label}: ${target} after ${timings[label]} s`);
  };

  await provision('manage', { target: 'manage' }, 'manageable');
  await provision('inspect', { target: 'inspect' }, 'manageable');
  const inventory = await ironic<{ inventory: { interfaces: { mac_address: string }[] } }>(
    'GET',
    `/v1/nodes/${node.uuid}/inventory`,
  );
  if (!inventory.inventory.interfaces.some((nic) => nic.mac_address === options.mac.toLowerCase())) {
    throw new Error('the stored inventory does not list the node\'s NIC');
  }
  if ((await records()).inspections.at(-1)?.accepted !== true) throw new Error('the simulator recorded no accepted inspection');

  const wipesBefore = (await records()).diskWipes.length;
  await provision('provide (cleaning)', { target: 'provide' }, 'available');
  if ((await records()).diskWipes.length <= wipesBefore) throw new Error('cleaning wiped no disk');

  await ironic('PATCH', `/v1/nodes/${node.uuid}`, [
    { op: 'add', path: '/instance_info/image_source', value: options.imageUrl },
    { op: 'add', path: '/instance_info/image_checksum', value: options.imageChecksum },
  ]);
  const configdrive = gzipSync(Buffer.from(`config drive of ${node.uuid}\n`)).toString('base64');
  await provision('deploy', { target: 'active', configdrive }, 'active');
  const write = (await records()).imageWrites.at(-1);
  if (write?.outcome !== 'written' || write.url !== options.imageUrl || !write.configDrive.written) {
    throw new Error(`unexpected image write record: ${JSON.stringify(write)}`);
  }

  const wipesBeforeUndeploy = (await records()).diskWipes.length;
  await provision('undeploy (cleaning)', { target: 'deleted' }, 'available');
  if ((await records()).diskWipes.length <= wipesBeforeUndeploy) throw new Error('cleaning after undeploy wiped no disk');

  return { nodeUuid: node.uuid, timings };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ironic: { type: 'string' },
      simulator: { type: 'string' },
      redfish: { type: 'string' },
      system: { type: 'string' },
      mac: { type: 'string' },
      image: { type: 'string' },
      checksum: { type: 'string' },
    },
  });
  const required = ['ironic', 'simulator', 'redfish', 'system', 'mac', 'image', 'checksum'] as const;
  const missing = required.filter((name) => values[name] === undefined);
  if (missing.length > 0) throw new Error(`missing --${missing.join(', --')}`);
  const result = await runLifecycleSmoke({
    ironicUrl: values.ironic as string,
    simulatorUrl: values.simulator as string,
    redfishUrl: values.redfish as string,
    systemUuid: values.system as string,
    mac: values.mac as string,
    imageUrl: values.image as string,
    imageChecksum: values.checksum as string,
    log: (message) => process.stdout.write(`${new Date().toISOString()} ${message}\n`),
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`smoke failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
