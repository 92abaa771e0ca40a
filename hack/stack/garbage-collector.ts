import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildKubeBinaries } from './kube.ts';
import { startProcess, stopProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';
import type { StackEnv } from './state.ts';

export interface GarbageCollectorOptions {
  env: Pick<StackEnv, 'kubeconfig'>;
  /** The log goes to `<stateDir>/logs/<name>.log`. */
  stateDir: string;
  /** Names the process and its log; unique among running collectors. */
  name: string;
}

export interface GarbageCollector {
  process: TrackedProcess;
  spec: ProcessSpec;
  stop(): Promise<void>;
}

// klog's line once the collector has a monitor on every resource it found and starts deleting.
const COLLECTING = 'Proceeding to collect garbage';

/**
 * Kubernetes' own garbage collector: kube-controller-manager of the pinned release running only
 * `garbage-collector-controller`, as the admin user, against the stack's API server. The stack
 * itself runs no controllers (envtest semantics), so dependents of a deleted owner stay until one
 * of these runs; a real cluster always has one. Resolves once it is collecting.
 */
export async function startGarbageCollector(options: GarbageCollectorOptions): Promise<GarbageCollector> {
  const binaries = await buildKubeBinaries();
  const logDir = join(options.stateDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const logPath = join(logDir, `${options.name}.log`);
  const spec: ProcessSpec = {
    name: options.name,
    command: binaries.kubeControllerManager,
    args: [
      `--kubeconfig=${options.env.kubeconfig}`,
      '--controllers=garbage-collector-controller',
      '--leader-elect=false',
      // Nothing needs its health or metrics endpoints; 0 serves none.
      '--secure-port=0',
    ],
    logPath,
  };
  // The log is appended to: only lines written by this process count.
  const logStart = existsSync(logPath) ? statSync(logPath).size : 0;
  const started = startProcess(spec);
  const stop = () => stopProcess(started, { graceMs: 10_000 });
  try {
    await waitUntil(async () => readFileSync(logPath).subarray(logStart).toString('utf8').includes(COLLECTING),
      { what: `${options.name} to start collecting`, timeoutMs: 60_000, intervalMs: 250, process: started });
  } catch (error) {
    await stop();
    throw error;
  }
  return { process: started, spec, stop };
}
