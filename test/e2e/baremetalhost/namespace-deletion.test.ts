import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startClusterApiManager, type ClusterApiManager } from '../../../hack/capi/index.ts';
import { sampleClusterObjects } from '../../../hack/dev/sample-cluster.ts';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { startKubeControllers, type KubeControllers } from '../../../hack/stack/kube-controllers.ts';
import { isAlive } from '../../../hack/stack/processes.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { tearDownClusterApiFile } from '../../support/cluster-api-teardown.ts';
import { inState, recordsSince, serverRecords, sushyPowerState, waitForHost } from './hosts.ts';

// `kubectl delete namespace` with hosts and a workload cluster in it, as in a real cluster:
// Kubernetes' namespace controller deletes every object of the namespace at once (the hosts,
// their BMC Secrets, HardwareData, firmware settings, and the Cluster, its Machines and
// Metal3Machines) and the API server refuses anything new there, events included. Cluster API,
// the provider and the operator must still release, deprovision and power off the servers, take
// them out of Ironic and let go of what they hold, or the namespace never goes. This file starts
// kube-controller-manager's namespace controller and garbage collector for itself, so it runs
// alone (exclusive-files.ts), on servers 84-87 borrowed from operator-kills' large run.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const minutes = (n: number) => n * 60_000;
const SERVERS = { provisioned: 84, idle: 85, 'nsdel-cp': 86, 'nsdel-worker': 87 } as const;
const CLUSTER = 'doomed';
const IRONIC_VERSION = { 'x-openstack-ironic-api-version': '1.95' };
const image = env.images[0]!;

let namespace = '';
let operator: OperatorProcess | undefined;
let controllers: KubeControllers | undefined;
let capi: ClusterApiManager | undefined;
let provider: ProviderProcess | undefined;
const workload = new Kubectl({ kubectl: env.kubectl, kubeconfig: env.workload.kubeconfig });
const CLUSTER_HOSTS = ['nsdel-cp', 'nsdel-worker'] as const;

const namespaceGone = async () => ((await kubectl.run(['get', 'namespace', namespace])).code === 0 ? undefined : true);

beforeAll(async () => {
  controllers = await startKubeControllers({ env, stateDir: env.stateDir, name: 'namespace-controller-e2e',
    controllers: ['namespace-controller', 'garbage-collector-controller'] });
  namespace = await createUniqueNamespace(kubectl, 'e2e-namespace-deletion');
  for (const name of CLUSTER_HOSTS) await workload.run(['delete', 'node', name, '--ignore-not-found']);
  capi = await startClusterApiManager({ env, stateDir: env.stateDir, namespace, label: namespace });
  operator = startOperatorProcess({ env, namespace, label: namespace });
  provider = startProviderProcess({ env, namespace, label: namespace });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    ...hostObjects({ env, namespace, hosts: [
      { name: 'provisioned', system: env.systems[SERVERS.provisioned]!, spec: { automatedCleaningMode: 'metadata',
        image: { url: image.url, checksum: `${image.url}.sha256sum`, checksumType: 'sha256', format: 'raw' } } },
      { name: 'idle', system: env.systems[SERVERS.idle]!, spec: { online: false, automatedCleaningMode: 'disabled' } },
      { name: 'nsdel-cp', system: env.systems[SERVERS['nsdel-cp']]!, labels: { role: 'control-plane' }, spec: { online: false } },
      { name: 'nsdel-worker', system: env.systems[SERVERS['nsdel-worker']]!, labels: { role: 'worker' }, spec: { online: false } },
    ] }),
    ...sampleClusterObjects({ env, namespace, name: CLUSTER, watchLabels: capi.watchLabels,
      controlPlaneHostSelector: { role: 'control-plane' }, workerHostSelector: { role: 'worker' }, workerReplicas: 1 }),
  ] }));
}, minutes(3));

afterAll(async () => {
  // Only an interrupted run leaves something here: the namespace is gone when the test passes.
  if (namespace && !(await namespaceGone())) {
    await tearDownClusterApiFile({ env, kubectl, workload, namespace, clusterApiRan: capi !== undefined,
      processes: [provider, operator, capi], nodeNames: [...CLUSTER_HOSTS] });
  } else {
    for (const process of [provider, operator, capi]) await process?.stop();
    for (const name of CLUSTER_HOSTS) await workload.run(['delete', 'node', name, '--ignore-not-found']);
    kubectl.dispose();
    workload.dispose();
  }
  await controllers?.stop();
}, minutes(6));

interface Machine { metadata: { name: string }; status?: { phase?: string } }

/** What still holds the namespace up, for a failure message. */
async function leftovers(): Promise<string> {
  const result = await kubectl.run(['get', 'bmh,machines.cluster.x-k8s.io,m3m,clusters.cluster.x-k8s.io,secrets,hardwaredata', '-n', namespace,
    '-o', 'custom-columns=KIND:.kind,NAME:.metadata.name,FINALIZERS:.metadata.finalizers,STATE:.status.provisioning.state', '--no-headers']);
  return result.stdout.trim() || 'nothing';
}

describe('a namespace deleted with its hosts and a workload cluster in it', () => {
  it('goes once Cluster API, the provider and the operator have released, deprovisioned, powered off and unregistered its servers', async () => {
    const provisioned = await waitForHost(kubectl, namespace, 'provisioned', inState('provisioned'), { timeoutMs: minutes(6), failOnError: true });
    const idle = await waitForHost(kubectl, namespace, 'idle', inState('available'), { timeoutMs: minutes(3), failOnError: true });
    await waitFor(async () => {
      const machines = (await kubectl.json<{ items: Machine[] }>(['get', 'machines.cluster.x-k8s.io', '-n', namespace])).items;
      return machines.length === 2 && machines.every((machine) => machine.status?.phase === 'Running') ? true : undefined;
    }, { timeoutMs: minutes(6), intervalMs: 2_000, what: 'the control plane and worker Machines to run' });
    const clusterHosts = await Promise.all(CLUSTER_HOSTS.map((name) => waitForHost(kubectl, namespace, name, inState('provisioned'), { timeoutMs: minutes(1) })));
    const nodes = [provisioned, idle, ...clusterHosts].map((host) => host.status!.provisioning!.ID!);
    const provisionedServer = env.systems[SERVERS.provisioned]!.uuid;
    const before = await serverRecords(env, provisionedServer);
    expect(await sushyPowerState(env, provisionedServer)).toBe('On');
    // What the namespace controller has to wait for: the operator's finalizers.
    expect((await kubectl.ok(['get', 'secret', 'provisioned-bmc-secret', '-n', namespace, '-o', 'jsonpath={.metadata.finalizers}'])))
      .toContain('baremetalhost.metal3.io/secret');
    expect((await kubectl.ok(['get', 'hardwaredata', 'provisioned', '-n', namespace, '-o', 'jsonpath={.metadata.finalizers}'])))
      .toContain('baremetalhost.metal3.io/hardwareData');

    await kubectl.ok(['delete', 'namespace', namespace, '--wait=false']);
    let left = '';
    await waitFor(async () => {
      if (await namespaceGone()) return true;
      left = await leftovers();
      return undefined;
    }, { timeoutMs: minutes(6), intervalMs: 2_000, what: `namespace ${namespace} to be deleted` }).catch((error: Error) => {
      throw new Error(`${error.message}; left: ${left}`);
    });

    // The servers went through a real deletion: Ironic has none of the nodes, all are off, and
    // the provisioned one was cleaned (metadata) before it was let go.
    for (const node of nodes) expect((await fetch(`${env.ironicUrl}/v1/nodes/${node}`, { headers: IRONIC_VERSION })).status).toBe(404);
    for (const server of Object.values(SERVERS)) expect(await sushyPowerState(env, env.systems[server]!.uuid)).toBe('Off');
    expect(recordsSince(await serverRecords(env, provisionedServer), before).diskWipes).not.toEqual([]);
    // The operator and the provider lived through the namespace's refusals (every new object:
    // events, firmware settings made again) without taking them for errors to retry.
    for (const process of [operator!.process, provider!.process]) {
      expect(isAlive(process.pid)).toBe(true);
      expect(readFileSync(process.logPath, 'utf8').split('\n').filter((line) => line.includes('"level":"error"'))).toEqual([]);
    }
  }, minutes(16));
});
