import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { z } from 'zod';
import { defaultStateDir } from './paths.ts';
import { envJsonFile, envShellFile } from './state.ts';
import { restartComponent, stackDown, stackStatus, stackUp } from './stack.ts';

const usage = `usage: npm run stack -- <up|down|status|restart NAME> [--systems N] [--ironic-basic-auth] [--no-bmc-auth] [--state-dir DIR]`;

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        systems: { type: 'string', default: '4' },
        'ironic-basic-auth': { type: 'boolean', default: false },
        'no-bmc-auth': { type: 'boolean', default: false },
        'state-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // An unknown or malformed option: say which, and how the command is used, not a stack trace.
    console.error(`stack: ${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
}

const { values, positionals } = parseCommandLine();
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const systems = z.coerce.number().int().min(1).max(500).safeParse(values.systems);
if (!systems.success) {
  console.error(`invalid --systems ${values.systems}: a whole number from 1 to 500`);
  process.exit(2);
}
// Absolute: the kubeconfig and env files written under it name paths kubectl reads from elsewhere.
const stateDir = resolve(values['state-dir'] ?? defaultStateDir());
const [command, argument] = positionals;

try {
  if (command === 'up') {
    const started = Date.now();
    const env = await stackUp({
      stateDir, systems: systems.data, ironicBasicAuth: values['ironic-basic-auth'], bmcBasicAuth: !values['no-bmc-auth'],
      log: (line) => console.log(`stack: ${line}`),
    });
    console.log(`stack: up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(`  kube-apiserver   ${env.apiServerUrl}   (kubeconfig ${env.kubeconfig})`);
    console.log(`  workload API     ${env.workload.apiServerUrl}   (kubeconfig ${env.workload.kubeconfig})`);
    console.log(`  ironic           ${env.ironicUrl}${env.ironicAuth ? ' (http_basic)' : ' (noauth)'}`);
    const isolated = env.isolatedBmc?.systems.length ?? 0;
    console.log(`  sushy-emulator   ${env.sushyUrl}   (${env.systems.length - isolated} systems)`);
    if (env.isolatedBmc) console.log(`  ${env.isolatedBmc.component}   ${env.isolatedBmc.url}   (servers ${env.isolatedBmc.systems.join(', ')})`);
    if (env.isolatedIpmiBmc) console.log(`  ${env.isolatedIpmiBmc.component}   ${env.isolatedIpmiBmc.address}   (server ${env.isolatedIpmiBmc.system})`);
    console.log(`  agent simulator  ${env.agentSimulatorUrl}   (records at /records)`);
    console.log(`  artifacts        ${env.artifactsUrl}`);
    console.log(`  env file: source ${envShellFile(stateDir)}   (json: ${envJsonFile(stateDir)})`);
  } else if (command === 'down') {
    const stopped = await stackDown(stateDir);
    console.log(`stack: stopped ${stopped.length ? stopped.join(', ') : 'nothing (no stack recorded)'}`);
  } else if (command === 'status') {
    const status = stackStatus(stateDir);
    if (status.components.length === 0) console.log('stack: not running');
    for (const component of status.components) {
      console.log(`  ${component.name.padEnd(16)} pid ${String(component.pid).padEnd(8)} ${component.running ? 'running' : 'STOPPED'}  log ${component.logPath}`);
    }
    if (status.components.some((component) => !component.running)) process.exitCode = 1;
  } else if (command === 'restart' && argument) {
    await restartComponent(stateDir, argument);
    console.log(`stack: restarted ${argument}`);
  } else {
    console.error(usage);
    process.exitCode = 2;
  }
} catch (error) {
  console.error(`stack: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
