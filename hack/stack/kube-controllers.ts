import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildKubeBinaries } from './kube.ts';
import { startProcess, stopProcess, waitUntil, type ProcessSpec, type TrackedProcess } from './processes.ts';
import type { StackEnv } from './state.ts';

/** The kube-controller-manager controllers a test may start; the stack itself runs none. */
export type KubeController = 'garbage-collector-controller' | 'namespace-controller';

export interface KubeControllersOptions {
  env: Pick<StackEnv, 'kubeconfig'>;
  /** The log goes to `<stateDir>/logs/<name>.log`. */
  stateDir: string;
  /** Names the process and its log; unique among running controller managers. */
  name: string;
  controllers: readonly KubeController[];
}

export interface KubeControllers {
  process: TrackedProcess;
  spec: ProcessSpec;
  stop(): Promise<void>;
}

// klog's line once each controller works: the collector has a monitor on every resource it
// found and starts deleting; the namespace controller has its informer and workers.
const READY_LINES: Record<KubeController, string> = {
  'garbage-collector-controller': 'Proceeding to collect garbage',
  'namespace-controller': 'Starting namespace controller',
};

/**
 * Kubernetes' own controllers of a real cluster's deletions: kube-controller-manager of the
 * pinned release running only the given ones, as the admin user, against the stack's API
 * server. The stack itself runs no controllers (envtest semantics), so dependents of a deleted
 * owner stay, and a deleted namespace keeps its objects, until one of these runs; a real cluster
 * always has both. Resolves once every one of them works.
 */
export async function startKubeControllers(options: KubeControllersOptions): Promise<KubeControllers> {
  const binaries = await buildKubeBinaries();
  const logDir = join(options.stateDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const logPath = join(logDir, `${options.name}.log`);
  const spec: ProcessSpec = {
    name: options.name,
    command: binaries.kubeControllerManager,
    args: [
      `--kubeconfig=${options.env.kubeconfig}`,
      `--controllers=${options.controllers.join(',')}`,
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
    const ready = () => {
      const written = readFileSync(logPath).subarray(logStart).toString('utf8');
      return options.controllers.every((controller) => written.includes(READY_LINES[controller]));
    };
    await waitUntil(async () => ready(), { what: `${options.name} to start ${options.controllers.join(' and ')}`, timeoutMs: 60_000, intervalMs: 250, process: started });
  } catch (error) {
    await stop();
    throw error;
  }
  return { process: started, spec, stop };
}
