import { parseArgs } from 'node:util';
import { loadSimulatorConfig } from './config.ts';
import { createLogger } from './log.ts';
import { startSimulator } from './simulator.ts';

/**
 * Plays the physical servers behind sushy-tools' fake Redfish systems and the IPA
 * ramdisk on them, so a real Ironic can inspect, clean, deploy and undeploy them.
 *
 *   node hack/agent-simulator/main.ts --config simulator.json
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { config: { type: 'string' } } });
  if (values.config === undefined) {
    process.stderr.write('usage: node hack/agent-simulator/main.ts --config <file.json>\n');
    process.exit(2);
  }
  const logger = createLogger();
  const simulator = await startSimulator(loadSimulatorConfig(values.config), logger);
  const shutdown = (signal: string) => {
    logger.info('shutting down', { signal });
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`agent simulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
