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

/** One IPMI BMC (pyghmi's BMC server class) on loopback UDP, for ipmi:// hosts. */
export async function startIpmiBmc(options: { stateDir: string; venv: string; port: number; credentials: BasicCredentials }): Promise<IpmiBmcStarted> {
  const spec: ProcessSpec = {
    name: 'ipmi-bmc',
    command: join(options.venv, 'bin', 'python'),
    args: ['-u', join(repoRoot, 'hack', 'ipmi-bmc', 'ipmi_bmc.py'), '--port', String(options.port)],
    env: { IPMI_BMC_USERNAME: options.credentials.username, IPMI_BMC_PASSWORD: options.credentials.password },
    logPath: join(options.stateDir, 'logs', 'ipmi-bmc.log'),
  };
  const started = startProcess(spec);
  await waitUntil(async () => readFileSync(spec.logPath, 'utf8').includes('listening'), {
    what: 'ipmi bmc', timeoutMs: 15_000, process: started,
  });
  return { spec, process: started, address: `ipmi://127.0.0.1:${options.port}` };
}
