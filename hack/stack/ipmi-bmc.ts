import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BasicCredentials } from './htpasswd.ts';
import { repoRoot } from './paths.ts';
import { startProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';

export interface IpmiBmcStarted {
  spec: ProcessSpec;
  process: TrackedProcess;
  /** `ipmi://127.0.0.1:<port>`, as a BareMetalHost's spec.bmc.address. */
  address: string;
}

export interface IpmiBmcOptions {
  stateDir: string;
  venv: string;
  port: number;
  credentials: BasicCredentials;
  /** Process and log name; `ipmi-bmc` by default. */
  name?: string;
  /**
   * The sushy-tools system this BMC manages over IPMI (power, boot device), so the agent simulator
   * plays the server behind it. Absent: the BMC only remembers a power state and a boot device.
   */
  redfishSystem?: { url: string; credentials?: BasicCredentials | undefined };
}

/** One IPMI BMC (pyghmi's BMC server class) on loopback UDP, for ipmi:// hosts. */
export async function startIpmiBmc(options: IpmiBmcOptions): Promise<IpmiBmcStarted> {
  const name = options.name ?? 'ipmi-bmc';
  const system = options.redfishSystem;
  const spec: ProcessSpec = {
    name,
    command: join(options.venv, 'bin', 'python'),
    args: ['-u', join(repoRoot, 'hack', 'ipmi-bmc', 'ipmi_bmc.py'), '--port', String(options.port)],
    env: {
      IPMI_BMC_USERNAME: options.credentials.username,
      IPMI_BMC_PASSWORD: options.credentials.password,
      ...(system ? { IPMI_BMC_REDFISH_SYSTEM: system.url } : {}),
      ...(system?.credentials
        ? { IPMI_BMC_REDFISH_USERNAME: system.credentials.username, IPMI_BMC_REDFISH_PASSWORD: system.credentials.password }
        : {}),
    },
    logPath: join(options.stateDir, 'logs', `${name}.log`),
  };
  const started = startProcess(spec);
  await waitUntil(async () => readFileSync(spec.logPath, 'utf8').includes('listening'), {
    what: 'ipmi bmc', timeoutMs: 15_000, process: started,
  });
  return { spec, process: started, address: `ipmi://127.0.0.1:${options.port}` };
}
