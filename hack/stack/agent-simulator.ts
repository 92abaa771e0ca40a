import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BasicCredentials } from './htpasswd.ts';
import { repoRoot } from './paths.ts';
import { startProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';
import type { EmulatedSystem } from './systems.ts';

export interface AgentSimulatorOptions {
  stateDir: string;
  port: number;
  ironicUrl: string;
  ironicAuth?: BasicCredentials;
  redfishUrl: string;
  redfishAuth?: BasicCredentials;
  systems: EmulatedSystem[];
  /** Servers whose BMC is not at `redfishUrl`: system UUID to the base URL of the Redfish emulator serving it. */
  redfishUrlBySystem?: ReadonlyMap<string, string>;
  /**
   * Kubeconfig of the workload cluster: the servers' installed OS registers a Node there when it
   * boots from disk after a deploy, and deletes it when the host is deprovisioned. Unset: no Nodes.
   */
  workloadKubeconfig?: string;
  /** The etcd a simulated control plane node with stacked etcd runs (the stack's own build). */
  etcdBinary?: string;
  /** A CA the ramdisk trusts besides the system's, as an IPA image built with it would (an Ironic serving TLS). */
  trustedCaFile?: string;
}

export interface AgentSimulatorStarted {
  spec: ProcessSpec;
  process: TrackedProcess;
  url: string;
}

/** Our stand-in for the servers' IPA ramdisk (hack/agent-simulator), fed by sushy's notifications. */
export async function startAgentSimulator(options: AgentSimulatorOptions): Promise<AgentSimulatorStarted> {
  const configPath = join(options.stateDir, 'agent-simulator.json');
  const config = {
    listen: { host: '127.0.0.1', port: options.port },
    ironicUrl: options.ironicUrl,
    ...(options.ironicAuth ? { ironicAuth: options.ironicAuth } : {}),
    redfish: { url: options.redfishUrl, ...(options.redfishAuth ?? {}) },
    ...(options.workloadKubeconfig === undefined ? {} : { workloadKubeconfig: options.workloadKubeconfig }),
    ...(options.etcdBinary === undefined ? {} : { etcdBinary: options.etcdBinary }),
    systems: options.systems.map((system) => ({
      uuid: system.uuid,
      name: system.name,
      nics: system.macs.map((mac) => ({ mac })),
      ...(options.redfishUrlBySystem?.has(system.uuid) ? { redfishUrl: options.redfishUrlBySystem.get(system.uuid) } : {}),
    })),
  };
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  const spec: ProcessSpec = {
    name: 'agent-simulator',
    command: process.execPath,
    args: ['--disable-warning=ExperimentalWarning', join(repoRoot, 'hack', 'agent-simulator', 'main.ts'), '--config', configPath],
    ...(options.trustedCaFile === undefined ? {} : { env: { NODE_EXTRA_CA_CERTS: options.trustedCaFile } }),
    logPath: join(options.stateDir, 'logs', 'agent-simulator.log'),
  };
  const started = startProcess(spec);
  const url = `http://127.0.0.1:${options.port}`;
  await waitUntil(async () => (await fetch(`${url}/healthz`)).ok, { what: 'agent simulator', timeoutMs: 30_000, process: started });
  return { spec, process: started, url };
}
