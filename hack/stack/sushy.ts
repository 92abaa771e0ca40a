import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeHtpasswd, type BasicCredentials } from './htpasswd.ts';
import { repoRoot } from './paths.ts';
import { startProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';
import { redfishHardware } from './sushy-hardware.ts';
import type { EmulatedSystem } from './systems.ts';

export interface SushyOptions {
  stateDir: string;
  /**
   * Names a second emulator beside the main one (component `sushy-emulator-<instance>`, state in
   * `sushy-<instance>/`, its own log): a BMC a test can stop without touching the other servers.
   */
  instance?: string;
  venv: string;
  port: number;
  systems: EmulatedSystem[];
  notificationUrl: string;
  auth?: BasicCredentials;
}

export interface SushyStarted {
  spec: ProcessSpec;
  process: TrackedProcess;
  url: string;
}

const FAKE_FIRMWARE = join(repoRoot, 'hack', 'stack', 'sushy', 'fake_firmware.py');

/** Python run by the emulator's config file: BIOS and firmware for the fake driver (see that file). */
function fakeFirmwareConfig(): string[] {
  return [
    'import runpy as _runpy',
    `_fake_firmware = _runpy.run_path(${JSON.stringify(FAKE_FIRMWARE)})`,
    'from sushy_tools.emulator import main as _sushy_main',
    "_fake_firmware['install_record_route'](_sushy_main.app)",
  ];
}

/**
 * sushy-tools' fake Redfish driver: every system notifies the agent simulator of changes, serves
 * its hardware (processors, memory, drives) for out-of-band inspection through
 * `sushy/fake_hardware.py` (whose storage controller does hardware RAID, `sushy/fake_raid.py`), BIOS and firmware through `sushy/fake_firmware.py`, and a graceful
 * shutdown asks the simulator whether the server's software shuts down
 * (`sushy/graceful_shutdown.py`), and the BMC keeps Redfish event subscriptions
 * (`sushy/fake_events.py`); the config file loads all four.
 */
export async function startSushy(options: SushyOptions): Promise<SushyStarted> {
  const suffix = options.instance ? `-${options.instance}` : '';
  const name = `sushy-emulator${suffix}`;
  const dir = join(options.stateDir, `sushy${suffix}`);
  mkdirSync(join(dir, 'state'), { recursive: true });
  const authFile = join(dir, 'htpasswd');
  if (options.auth) await writeHtpasswd(authFile, options.auth, options.venv);
  const systems = options.systems.map((system) => ({
    uuid: system.uuid,
    name: system.name,
    power_state: 'Off',
    external_notifier: true,
    nics: system.macs.map((mac) => ({ mac })),
    hardware: redfishHardware(system),
  }));
  const config = [
    'import json',
    'import sys',
    // No __pycache__ inside the repository.
    'sys.dont_write_bytecode = True',
    `sys.path.insert(0, ${JSON.stringify(join(repoRoot, 'hack', 'stack', 'sushy'))})`,
    'import fake_hardware',
    'SUSHY_EMULATOR_FAKE_DRIVER = True',
    "SUSHY_EMULATOR_LISTEN_IP = '127.0.0.1'",
    `SUSHY_EMULATOR_LISTEN_PORT = ${options.port}`,
    `SUSHY_EMULATOR_STATE_DIR = ${JSON.stringify(join(dir, 'state'))}`,
    // A JSON string Python decodes, so no value has to be spelled the Python way.
    `SUSHY_EMULATOR_FAKE_SYSTEMS = json.loads(${JSON.stringify(JSON.stringify(systems))})`,
    'SUSHY_EMULATOR_STORAGE, SUSHY_EMULATOR_DRIVES, SUSHY_EMULATOR_VOLUMES = fake_hardware.storage_settings(SUSHY_EMULATOR_FAKE_SYSTEMS)',
    `EXTERNAL_NOTIFICATION_URL = ${JSON.stringify(options.notificationUrl)}`,
    'SUSHY_EMULATOR_VMEDIA_VERIFY_SSL = False',
    ...(options.auth ? [`SUSHY_EMULATOR_AUTH_FILE = ${JSON.stringify(authFile)}`] : []),
    // The config file is Python: it also lets the agent simulator decide about graceful shutdowns.
    'import graceful_shutdown',
    // Redfish EventService subscriptions (BMCEventSubscription), kept by this BMC in memory.
    'import fake_events',
    'from sushy_tools.emulator import main as _sushy_main_events',
    'fake_events.install(_sushy_main_events.app)',
    `graceful_shutdown.install(${JSON.stringify(options.notificationUrl)})`,
    ...fakeFirmwareConfig(),
  ].join('\n');
  const configPath = join(dir, 'conf.py');
  writeFileSync(configPath, `${config}\n`);
  const spec: ProcessSpec = {
    name,
    command: join(options.venv, 'bin', 'sushy-emulator'),
    args: ['--config', configPath],
    logPath: join(options.stateDir, 'logs', `${name}.log`),
  };
  const process = startProcess(spec);
  const url = `http://127.0.0.1:${options.port}`;
  const headers: Record<string, string> = options.auth
    ? { authorization: `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}` }
    : {};
  await waitUntil(async () => (await fetch(`${url}/redfish/v1/Systems`, { headers })).ok, {
    what: name, timeoutMs: 30_000, process,
  });
  return { spec, process, url };
}
