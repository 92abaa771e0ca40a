import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { builtEntryPath, type RuntimeEntry } from '../../hack/build/index.ts';
import type { ControllerIdentity } from '../../hack/stack/controller-identity.ts';
import { isAlive, startProcess, stopProcess, type TrackedProcess } from '../../hack/stack/processes.ts';
import { controllerKubeconfig } from './controller-identities.ts';
import { keepMetricsPage } from './final-metrics.ts';
import type { StackEnv } from './stack-env.ts';

export interface ControllerProcess {
  process: TrackedProcess;
  logPath: string;
  /** SIGTERM and wait: a graceful shutdown. */
  stop(): Promise<void>;
}

/**
 * One of our controller managers as its own process against the test stack, with the token of
 * its ServiceAccount from deploy/ (never admin): a missing permission fails the test.
 * Metrics are served on a free port (kept beside the log at stop for the secret scan) and the
 * health server is off, so any number can run side by side.
 */
export function startControllerProcess(options: {
  env: Pick<StackEnv, 'stateDir'>;
  identity: ControllerIdentity;
  /** The entry point; the process runs its build (global-setup.ts builds before any test). */
  main: RuntimeEntry;
  /** Names the process and its log file. */
  name: string;
  args: string[];
  vars: Record<string, string>;
}): ControllerProcess {
  const logDir = join(options.env.stateDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const logPath = join(logDir, `${options.name}.log`);
  const started = startProcess({
    name: options.name,
    command: process.execPath,
    args: ['--disable-warning=ExperimentalWarning', builtEntryPath(options.main), ...options.args],
    env: {
      KUBECONFIG: controllerKubeconfig(options.env.stateDir, options.identity),
      METRICS_BIND_ADDRESS: '127.0.0.1:0',
      // Plain HTTP for the tests' scrapes; test/integration/deploy/secure-metrics.test.ts serves them as deployed.
      METRICS_SECURE: 'false',
      HEALTH_PROBE_BIND_ADDRESS: '0',
      LOG_LEVEL: 'debug',
      ...options.vars,
    },
    logPath,
  });
  return {
    process: started,
    logPath,
    stop: async () => {
      if (!isAlive(started.pid)) return;
      await keepMetricsPage(logPath);
      await stopProcess(started, { graceMs: 15_000 });
    },
  };
}
