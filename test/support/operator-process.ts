import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { builtEntryPath } from '../../hack/build/index.ts';
import { OPERATOR_NODE_FLAGS, OPERATOR_PROCESS_ENV } from '../../operator/node-flags.ts';
import { OPERATOR_IDENTITY } from '../../hack/stack/controller-identity.ts';
import { operatorEnvironment } from '../../hack/stack/operator-env.ts';
import { isAlive, startProcess, stopProcess, type TrackedProcess } from '../../hack/stack/processes.ts';
import { controllerKubeconfig } from './controller-identities.ts';
import { keepMetricsPage } from './final-metrics.ts';
import type { StackEnv } from './stack-env.ts';

export interface OperatorProcessOptions {
  env: StackEnv;
  /** Only hosts in this namespace are reconciled, so test files do not disturb each other. */
  namespace: string;
  /** Distinguishes log files when one test starts the operator more than once. */
  label: string;
  extraEnv?: Record<string, string>;
  /** Command-line flags, e.g. those BMO's own Deployment passes. */
  extraArgs?: string[];
}

export interface OperatorProcess {
  process: TrackedProcess;
  /** SIGTERM and wait: a graceful shutdown. */
  stop(): Promise<void>;
  /** SIGKILL: the operator dies mid-flight, as on a node crash. */
  kill(): Promise<void>;
}

/**
 * The real operator binary (`operator/main.ts`, built: global-setup.ts builds before any test) as a separate process against the test stack,
 * with the token of its ServiceAccount from deploy/ (not admin): a missing permission fails the test.
 */
export function startOperatorProcess(options: OperatorProcessOptions): OperatorProcess {
  const { env } = options;
  const logDir = join(env.stateDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const logPath = join(logDir, `operator-${options.label}.log`);
  const process_ = startProcess({
    name: `operator-${options.label}`,
    command: process.execPath,
    args: ['--disable-warning=ExperimentalWarning', ...OPERATOR_NODE_FLAGS, builtEntryPath('operator/main.ts'), ...(options.extraArgs ?? [])],
    env: {
      ...OPERATOR_PROCESS_ENV,
      ...operatorEnvironment(env),
      KUBECONFIG: controllerKubeconfig(env.stateDir, OPERATOR_IDENTITY),
      WATCH_NAMESPACE: options.namespace,
      LOG_LEVEL: 'debug',
      ...options.extraEnv,
    },
    logPath,
  });
  return {
    process: process_,
    stop: async () => {
      if (isAlive(process_.pid)) await keepMetricsPage(logPath);
      await stopProcess(process_, { graceMs: 20_000 });
    },
    kill: async () => {
      if (!isAlive(process_.pid)) return;
      await keepMetricsPage(logPath);
      process.kill(-process_.pid, 'SIGKILL');
      await stopProcess(process_, { graceMs: 1_000 });
    },
  };
}
