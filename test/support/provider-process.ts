import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PROVIDER_IDENTITY } from '../../hack/stack/controller-identity.ts';
import { repoRoot } from '../../hack/stack/paths.ts';
import { isAlive, startProcess, stopProcess, type TrackedProcess } from '../../hack/stack/processes.ts';
import { controllerKubeconfig } from './controller-identities.ts';
import type { StackEnv } from './stack-env.ts';

export interface ProviderProcessOptions {
  env: Pick<StackEnv, 'stateDir'>;
  /** Only this namespace is reconciled (`--namespace`), so test files do not disturb each other. */
  namespace: string;
  /** Distinguishes log files and leader identities. */
  label: string;
  extraEnv?: Record<string, string>;
}

export interface ProviderProcess {
  process: TrackedProcess;
  logPath: string;
  stop(): Promise<void>;
}

/**
 * The real provider (`capm3-provider/main.ts`) as its own process against the test stack, with
 * the token of its ServiceAccount from deploy/ (not admin): a missing permission fails the test.
 */
export function startProviderProcess(options: ProviderProcessOptions): ProviderProcess {
  const logDir = join(options.env.stateDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const logPath = join(logDir, `capm3-${options.label}.log`);
  const started = startProcess({
    name: `capm3-${options.label}`,
    command: process.execPath,
    args: ['--disable-warning=ExperimentalWarning', join(repoRoot, 'capm3-provider', 'main.ts'), '--namespace', options.namespace],
    env: {
      KUBECONFIG: controllerKubeconfig(options.env.stateDir, PROVIDER_IDENTITY),
      METRICS_BIND_ADDRESS: '0',
      HEALTH_PROBE_BIND_ADDRESS: '0',
      LOG_LEVEL: 'debug',
      // Tests wait for conditions; poll what is not ready yet quickly.
      CAPM3_REQUEUE_AFTER: '2s',
      ...options.extraEnv,
    },
    logPath,
  });
  return {
    process: started,
    logPath,
    stop: async () => {
      if (isAlive(started.pid)) await stopProcess(started, { graceMs: 15_000 });
    },
  };
}
