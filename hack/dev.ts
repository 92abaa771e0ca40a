// `npm run dev`: the local stack with core Cluster API, the operator and the provider, a
// workload cluster whose MachineDeployment starts at 0 replicas over free hosts, and a live
// view of hosts, Machines and replica counts until Ctrl-C. `--clusterclass` makes that cluster
// from a ClusterClass with Cluster API's kubeadm control plane and bootstrap managers instead.
// `--no-cluster` runs the operator alone on sample hosts that provision themselves. The operator's validating webhook and the
// provider's defaulting and validating webhooks are registered for the dev namespace, so bad
// objects are refused as in a cluster.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { buildRuntimeEntries, builtEntryPath, type RuntimeEntry } from './build/index.ts';
import { installClusterApiCrds, installKubeadmCrds, startClusterApiManager } from './capi/index.ts';
import type { ClusterApiManager } from './capi/index.ts';
import { kubectl } from './dev/kubectl.ts';
import { watchObjects } from './dev/object-watcher.ts';
import { sampleClusterObjects } from './dev/sample-cluster.ts';
import { sampleClusterClassObjects, sampleTopologyClusterObjects } from './dev/sample-clusterclass.ts';
import { hostObjects, sampleHostObjects } from './dev/sample-hosts.ts';
import { hostKind, machineDeploymentKind, machineKind } from './dev/watched-kinds.ts';
import { OPERATOR_IDENTITY, PROVIDER_IDENTITY, installControllerIdentity, type ControllerIdentity } from './stack/controller-identity.ts';
import { OPERATOR_NODE_FLAGS, OPERATOR_PROCESS_ENV } from '../operator/node-flags.ts';
import { defaultStateDir, repoRoot } from './stack/paths.ts';
import { operatorEnvironment } from './stack/operator-env.ts';
import { prepareOperatorWebhook } from './stack/operator-webhook.ts';
import { providerConversion, type ProviderConversion } from './stack/provider-conversion.ts';
import { prepareProviderWebhook, type ProviderWebhook } from './stack/provider-webhook.ts';
import { isAlive, startProcess, stopProcess, type TrackedProcess } from './stack/processes.ts';
import { startKubeControllers } from './stack/kube-controllers.ts';
import { kubernetesVersion } from './stack/kube.ts';
import { readState, envShellFile } from './stack/state.ts';
import { stackDown, stackUp } from './stack/stack.ts';

const { values } = parseArgs({
  options: {
    hosts: { type: 'string', default: '4' },
    'no-cluster': { type: 'boolean', default: false },
    clusterclass: { type: 'boolean', default: false },
    'no-provision': { type: 'boolean', default: false },
    'keep-stack': { type: 'boolean', default: false },
    'state-dir': { type: 'string' },
  },
});
const withCluster = !values['no-cluster'];
const withClusterClass = withCluster && values.clusterclass;
const hosts = z.coerce.number().int().min(withCluster ? 2 : 1).max(200).parse(values.hosts);
const stateDir = values['state-dir'] ?? defaultStateDir();
const namespace = 'metal3-dev';
const clusterName = 'dev';
const say = (line: string) => console.log(line);

const existing = readState(stateDir);
const env = existing && existing.env.systems.length >= hosts
  ? existing.env
  : await (async () => {
      if (existing) await stackDown(stateDir);
      return stackUp({ stateDir, systems: hosts, ironicBasicAuth: false, bmcBasicAuth: true, log: (line) => say(`stack: ${line}`) });
    })();
const startedStack = existing === undefined || existing.env !== env;
const systems = env.systems.slice(0, hosts);

say('dev: applying CRDs');
await kubectl(env, ['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
if (withCluster) {
  await kubectl(env, ['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'capm3', 'crds')]);
  await installClusterApiCrds(env);
  if (withClusterClass) await installKubeadmCrds(env);
}
await kubectl(env, ['wait', '--for=condition=Established', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io']);
await kubectl(env, ['create', 'namespace', namespace]).catch(() => undefined);
mkdirSync(join(stateDir, 'logs'), { recursive: true });
// What a cluster does on deletions and the stack alone does not: dependents of a deleted owner
// are collected, and `kubectl delete namespace` empties the namespace and ends.
const kubeControllers = await startKubeControllers({ env, stateDir, name: 'kube-controllers',
  controllers: ['garbage-collector-controller', 'namespace-controller'] });
say(`dev: Kubernetes' garbage collector and namespace controller running (log ${kubeControllers.process.logPath})`);

// The processes run as installed controllers do: each with a token of its ServiceAccount from
// deploy/, bound only by the roles there (never the admin kubeconfig), so a missing permission
// shows up here as it would in a cluster.
const identityKubeconfig = (identity: ControllerIdentity) =>
  installControllerIdentity({ kubectl: env.kubectl, kubeconfig: env.kubeconfig, stateDir, identity });
const operatorKubeconfig = await identityKubeconfig(OPERATOR_IDENTITY);
say(`dev: the operator runs as ${OPERATOR_IDENTITY.namespace}/${OPERATOR_IDENTITY.serviceAccount}`);

const processes: TrackedProcess[] = [];
const built = await buildRuntimeEntries();
say(`dev: built ${built.sources.length} files into dist/ (${built.written} changed)`);
const start = (name: string, entry: RuntimeEntry, args: string[], processEnv: Record<string, string>): TrackedProcess => {
  const started = startProcess({
    name,
    command: process.execPath,
    args: ['--disable-warning=ExperimentalWarning', ...(entry === 'operator/main.ts' ? OPERATOR_NODE_FLAGS : []), builtEntryPath(entry), ...args],
    env: entry === 'operator/main.ts' ? { ...OPERATOR_PROCESS_ENV, ...processEnv } : processEnv,
    logPath: join(stateDir, 'logs', `${name}.log`),
  });
  processes.push(started);
  say(`dev: ${name} running (pid ${started.pid}, log ${started.logPath})`);
  return started;
};

const webhook = await prepareOperatorWebhook({ target: env, dir: join(stateDir, 'webhooks', namespace), name: namespace, namespace });
/** The operator with its webhook served and registered (the API server calls it before any host is applied). */
const startOperator = async (extraEnv: Record<string, string>) => {
  const operator = start('operator', 'operator/main.ts', [], {
    ...operatorEnvironment(env), KUBECONFIG: operatorKubeconfig, ...webhook.operatorEnv, ...extraEnv,
  });
  await webhook.register(operator);
  say(`dev: BareMetalHost webhook registered for namespace ${namespace}`);
};

let capi: ClusterApiManager | undefined;
const kubeadmManagers: ClusterApiManager[] = [];
let providerWebhook: ProviderWebhook | undefined;
let conversion: ProviderConversion | undefined;
const apply = (items: unknown[]) => kubectl(env, ['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items }) });
if (withCluster) {
  say('dev: starting the Cluster API core manager');
  capi = await startClusterApiManager({ env, stateDir, namespace, label: 'dev', ...(withClusterClass ? { featureGates: { ClusterTopology: true } } : {}) });
  say(`dev: Cluster API manager running (log ${capi.process.logPath})`);
  if (withClusterClass) {
    // kubeadm init on the control plane server uploads this; one left by an earlier run would mark the new cluster initialized at once.
    await kubectl({ ...env, kubeconfig: env.workload.kubeconfig }, ['delete', 'configmap', 'kubeadm-config', '-n', 'kube-system', '--ignore-not-found']);
    for (const component of ['kubeadm-bootstrap', 'kubeadm-control-plane'] as const) {
      const manager = await startClusterApiManager({ env, stateDir, namespace, label: 'dev', component, featureGates: { ClusterTopology: true } });
      kubeadmManagers.push(manager);
      say(`dev: Cluster API ${component} manager running (log ${manager.process.logPath})`);
    }
  }
  await startOperator({ WATCH_NAMESPACE: namespace });
  const providerKubeconfig = await identityKubeconfig(PROVIDER_IDENTITY);
  say(`dev: the provider runs as ${PROVIDER_IDENTITY.namespace}/${PROVIDER_IDENTITY.serviceAccount}`);
  providerWebhook = await prepareProviderWebhook({ target: env, dir: join(stateDir, 'webhooks', `${namespace}-capm3`), name: `${namespace}-capm3`, namespace });
  const provider = start('capm3-provider', 'capm3-provider/main.ts', ['--namespace', namespace], {
    KUBECONFIG: providerKubeconfig, METRICS_BIND_ADDRESS: '127.0.0.1:0', METRICS_SECURE: 'false', HEALTH_PROBE_BIND_ADDRESS: '127.0.0.1:0', CAPM3_REQUEUE_AFTER: '10s',
    ...providerWebhook.providerEnv,
  });
  await providerWebhook.register(provider);
  say(`dev: CAPM3's webhooks registered for namespace ${namespace}`);
  conversion = providerConversion({ target: env, port: providerWebhook.port, caPem: providerWebhook.caPem, namespace });
  await conversion.register(provider);
  say('dev: the provider converts v1beta1 Metal3 objects (kubectl get metal3machines.v1beta1.infrastructure.cluster.x-k8s.io)');
  const selectors = { controlPlaneHostSelector: { role: 'control-plane' }, workerHostSelector: { role: 'worker' } };
  await apply([
    ...hostObjects({ env, namespace, hosts: systems.map((system, index) => ({
      name: index === 0 ? 'control-plane-1' : `worker-${index}`, system,
      labels: { role: index === 0 ? 'control-plane' : 'worker' }, spec: { online: false },
    })) }),
    ...(withClusterClass
      ? sampleClusterClassObjects({ namespace, name: `${clusterName}-class`, watchLabels: capi.watchLabels, ...selectors })
      : sampleClusterObjects({ env, namespace, name: clusterName, watchLabels: capi.watchLabels, ...selectors, workerReplicas: 0 })),
  ]);
  if (withClusterClass) {
    // The Cluster's webhook refuses a topology whose class the ClusterClass controller has not read yet.
    await kubectl(env, ['wait', '--for=condition=VariablesReady', '--timeout=60s', `clusterclass/${clusterName}-class`, '-n', namespace]);
    await apply(sampleTopologyClusterObjects({ env, namespace, name: clusterName, className: `${clusterName}-class`,
      watchLabels: capi.watchLabels, version: kubernetesVersion(), workerReplicas: 0 }));
    say(`dev: cluster "${clusterName}" of ClusterClass ${clusterName}-class: a KubeadmControlPlane of 1 and the workers' MachineDeployment (0 replicas) over ${hosts - 1} worker hosts`);
    say(`dev: in another shell: source ${envShellFile(stateDir)}`);
    say(`dev:   kubectl patch cluster ${clusterName} -n ${namespace} --type=json -p '[{"op":"replace","path":"/spec/topology/workers/machineDeployments/0/replicas","value":2}]'`);
  } else {
    say(`dev: cluster "${clusterName}": a control-plane Machine and MachineDeployment ${clusterName}-workers (0 replicas) over ${hosts - 1} worker hosts`);
    say(`dev: in another shell: source ${envShellFile(stateDir)}`);
    say(`dev:   kubectl scale machinedeployment ${clusterName}-workers -n ${namespace} --replicas=2`);
  }
  say(`dev:   kubectl get cluster,machinedeployment,machines,m3m,bmh -n ${namespace}; kubectl --kubeconfig $WORKLOAD_KUBECONFIG get nodes`);
} else {
  await startOperator({});
  await apply(sampleHostObjects({ env: { ...env, systems }, namespace, provision: !values['no-provision'] }));
  say(`dev: in another shell: source ${envShellFile(stateDir)}; kubectl get bmh -n ${namespace}; baremetal node list`);
}
say('dev: changes follow; Ctrl-C stops');

const stop = new AbortController();
let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  stop.abort();
  say('dev: stopping');
  // Without its server, the webhook (failurePolicy Fail) would refuse every host in the namespace.
  await webhook.unregister().catch((error: unknown) => say(`dev: could not remove the webhook configuration: ${String(error)}`));
  await providerWebhook?.unregister().catch((error: unknown) => say(`dev: could not remove the provider's webhook configurations: ${String(error)}`));
  await conversion?.unregister().catch((error: unknown) => say(`dev: could not turn the provider CRDs' conversion off: ${String(error)}`));
  for (const started of [...processes].reverse()) await stopProcess(started);
  for (const manager of kubeadmManagers.reverse()) await manager.stop();
  await capi?.stop();
  await kubeControllers.stop();
  if (startedStack && !values['keep-stack']) {
    say('dev: stopping the stack');
    await stackDown(stateDir);
  }
  process.exit(0);
};
const processCheck = setInterval(() => {
  const dead = processes.find((started) => !isAlive(started.pid));
  if (stopping || !dead) return;
  clearInterval(processCheck);
  say(`dev: ${dead.name} exited; see ${dead.logPath}`);
  void shutdown();
}, 2_000);
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
await watchObjects({
  kubeconfig: env.kubeconfig,
  namespace,
  kinds: withCluster ? [machineDeploymentKind, machineKind, hostKind] : [hostKind],
  print: say,
}, stop.signal);
