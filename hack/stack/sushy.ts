import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHtpasswd, type BasicCredentials } from './htpasswd.ts';
import { startProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';
import type { EmulatedSystem } from './systems.ts';

export interface SushyOptions {
  stateDir: string;
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

const FAKE_FIRMWARE = join(dirname(fileURLToPath(import.meta.url)), 'sushy-fake-firmware.py');

/** Python run by the emulator's config file: BIOS and firmware for the fake driver (see that file). */
function fakeFirmwareConfig(): string[] {
  return [
    'import runpy as _runpy',
    `_fake_firmware = _runpy.run_path(${JSON.stringify(FAKE_FIRMWARE)})`,
    'from sushy_tools.emulator import main as _sushy_main',
    "_fake_firmware['install_record_route'](_sushy_main.app)",
  ];
}

/** sushy-tools' fake Redfish driver: every system notifies the agent simulator of changes. */
export async function startSushy(options: SushyOptions): Promise<SushyStarted> {
  const dir = join(options.stateDir, 'sushy');
  mkdirSync(join(dir, 'state'), { recursive: true });
  const authFile = join(dir, 'htpasswd');
  if (options.auth) await writeHtpasswd(authFile, options.auth, options.venv);
  const systems = options.systems.map((system) => ({
    uuid: system.uuid,
    name: system.name,
    power_state: 'Off',
    external_notifier: true,
    nics: system.macs.map((mac) => ({ mac })),
  }));
  const config = [
    'SUSHY_EMULATOR_FAKE_DRIVER = True',
    "SUSHY_EMULATOR_LISTEN_IP = '127.0.0.1'",
    `SUSHY_EMULATOR_LISTEN_PORT = ${options.port}`,
    `SUSHY_EMULATOR_STATE_DIR = ${JSON.stringify(join(dir, 'state'))}`,
    `SUSHY_EMULATOR_FAKE_SYSTEMS = ${JSON.stringify(systems).replaceAll('true', 'True')}`,
    `EXTERNAL_NOTIFICATION_URL = ${JSON.stringify(options.notificationUrl)}`,
    'SUSHY_EMULATOR_VMEDIA_VERIFY_SSL = False',
    ...(options.auth ? [`SUSHY_EMULATOR_AUTH_FILE = ${JSON.stringify(authFile)}`] : []),
    ...fakeFirmwareConfig(),
  ].join('\n');
  const configPath = join(dir, 'conf.py');
  writeFileSync(configPath, `${config}\n`);
  const spec: ProcessSpec = {
    name: 'sushy-emulator',
    command: join(options.venv, 'bin', 'sushy-emulator'),
    args: ['--config', configPath],
    logPath: join(options.stateDir, 'logs', 'sushy-emulator.log'),
  };
  const process = startProcess(spec);
  const url = `http://127.0.0.1:${options.port}`;
  const headers: Record<string, string> = options.auth
    ? { authorization: `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}` }
    : {};
  await waitUntil(async () => (await fetch(`${url}/redfish/v1/Systems`, { headers })).ok, {
    what: 'sushy-emulator', timeoutMs: 30_000, process,
  });
  return { spec, process, url };
}
