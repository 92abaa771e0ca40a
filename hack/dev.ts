// `npm run dev`: the local stack, the operator on it, sample hosts, and a live
// view of every host's state changes until Ctrl-C.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { watchHosts } from './dev/host-watcher.ts';
import { kubectl } from './dev/kubectl.ts';
import { sampleHostObjects } from './dev/sample-hosts.ts';
import { defaultStateDir, repoRoot } from './stack/paths.ts';
import { operatorEnvironment } from './stack/operator-env.ts';
import { isAlive, startProcess, stopProcess } from './stack/processes.ts';
import { readState, envShellFile } from './stack/state.ts';
import { stackDown, stackUp } from './stack/stack.ts';

const { values } = parseArgs({
  options: {
    hosts: { type: 'string', default: '4' },
    'no-provision': { type: 'boolean', default: false },
    'keep-stack': { type: 'boolean', default: false },
    'state-dir': { type: 'string' },
  },
});
const hosts = z.coerce.number().int().min(1).max(200).parse(values.hosts);
const stateDir = values['state-dir'] ?? defaultStateDir();
const namespace = 'metal3-dev';
const say = (line: string) => console.log(line);

const existing = readState(stateDir);
const env = existing && existing.env.systems.length >= hosts
  ? existing.env
  : await (async () => {
      if (existing) await stackDown(stateDir);
      return stackUp({ stateDir, systems: hosts, ironicBasicAuth: false, bmcBasicAuth: true, log: (line) => say(`stack: ${line}`) });
    })();
const startedStack = existing === undefined || existing.env !== env;

say('dev: applying CRDs and sample hosts');
await kubectl(env, ['apply', '--server-side', '-k', join(repoRoot, 'deploy', 'crds')]);
await kubectl(env, ['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
await kubectl(env, ['create', 'namespace', namespace]).catch(() => undefined);
const objects = sampleHostObjects({ env: { ...env, systems: env.systems.slice(0, hosts) }, namespace, provision: !values['no-provision'] });
await kubectl(env, ['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }) });

mkdirSync(join(stateDir, 'logs'), { recursive: true });
const operator = startProcess({
  name: 'operator',
  command: process.execPath,
  args: ['--disable-warning=ExperimentalWarning', join(repoRoot, 'operator', 'main.ts')],
  env: operatorEnvironment(env),
  logPath: join(stateDir, 'logs', 'operator.log'),
});
say(`dev: operator running (pid ${operator.pid}, log ${operator.logPath})`);
say(`dev: in another shell: source ${envShellFile(stateDir)}; kubectl get bmh -n ${namespace}; baremetal node list`);
say('dev: host state changes follow; Ctrl-C stops');

const stop = new AbortController();
let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  stop.abort();
  say('dev: stopping the operator');
  await stopProcess(operator);
  if (startedStack && !values['keep-stack']) {
    say('dev: stopping the stack');
    await stackDown(stateDir);
  }
  process.exit(0);
};
const operatorCheck = setInterval(() => {
  if (stopping || isAlive(operator.pid)) return;
  clearInterval(operatorCheck);
  say(`dev: the operator exited; see ${operator.logPath}`);
  void shutdown();
}, 2_000);
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
await watchHosts({ kubeconfig: env.kubeconfig, namespace, print: say }, stop.signal);
