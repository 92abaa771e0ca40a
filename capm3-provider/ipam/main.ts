// The IP address manager's composition root (Metal3's ipam-controller-manager): settings,
// logger, Kubernetes clients and the IPPool controller are built here, once.
import { Registry, collectDefaultMetrics } from 'prom-client';
import { ConfigError, Manager, createLogger, loadKubeConfig, setupSignalHandler } from '../../operator/runtime/index.ts';
import type { SignalProcess } from '../../operator/runtime/index.ts';
import { watchFilterFor } from '../watch-filter.ts';
import { setupIpPoolController } from './controllers/controller.ts';
import { IPAM_NAME, compileIpamSettings } from './settings.ts';
import type { IpamSettings } from './settings.ts';

export interface IpamRun {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  process?: SignalProcess;
}

/** Runs the IP address manager until SIGTERM/SIGINT; resolves to the process exit code. */
export async function runIpam(run: IpamRun): Promise<number> {
  const stdout = run.stdout ?? ((text) => process.stdout.write(text));
  const stderr = run.stderr ?? ((text) => process.stderr.write(text));
  let settings: IpamSettings;
  try {
    settings = compileIpamSettings({ argv: run.argv, env: run.env });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (error.helpRequested) {
      stdout(`${error.message}\n`);
      return 0;
    }
    stderr(`${IPAM_NAME}: cannot start:\n${error.problems.map((problem) => `  ${problem}`).join('\n')}\n`);
    return 2;
  }
  const logger = createLogger({ level: settings.logLevel, defaultMeta: { component: IPAM_NAME } });
  const signals = setupSignalHandler({ logger, ...(run.process ? { process: run.process } : {}) });
  try {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const manager = new Manager({ name: IPAM_NAME, options: settings, kubeConfig: loadKubeConfig(settings.kubeconfig), registry, logger });
    const watchFilter = watchFilterFor(settings.watchFilter);
    setupIpPoolController(manager, { maxConcurrentReconciles: settings.ippoolConcurrency, ...(watchFilter ? { watchFilter } : {}) });
    logger.info('starting', { namespace: settings.watchNamespace ?? '(all)', watchFilter: settings.watchFilter ?? '(none)' });
    await manager.start(signals.signal);
    return 0;
  } catch (error) {
    logger.error('ipam failed', { error });
    return 1;
  } finally {
    signals.dispose();
  }
}

if (import.meta.main) {
  process.exitCode = await runIpam({ argv: process.argv.slice(2), env: process.env });
}
