import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { runClusterctl, startClusterApiManager, type ClusterApiManager } from '../../../hack/capi/index.ts';
import { sampleClusterObjects, workerTemplate } from '../../../hack/dev/sample-cluster.ts';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { prepareProviderWebhook, type ProviderWebhook } from '../../../hack/stack/provider-webhook.ts';
import { tearDownClusterApiFile } from '../../support/cluster-api-teardown.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';

// The story users know from Metal3: `kubectl scale machinedeployment` turns into servers being
// provisioned and released. Core Cluster API's own manager drives the provider, the provider
// drives the operator, the operator drives real Ironic, and the agent simulator's installed OS
// registers each Node in the stack's workload API server.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const workload = new Kubectl({ kubectl: env.kubectl, kubeconfig: env.workload.kubeconfig });
const minutes = (n: number) => n * 60_000;
jest.setTimeout(minutes(10));

const CLUSTER = 'scaling';
const MD = `${CLUSTER}-workers`;
// Servers 5, 6, 7, 10 and 11 of the test stack are this file's own.
const CONTROL_PLANE_HOST = { name: 'cp-host', system: 10 };
const WORKER_HOSTS = [{ name: 'worker-a', system: 5 }, { name: 'worker-b', system: 6 }, { name: 'worker-c', system: 7 }];
const LATE_HOST = { name: 'worker-late', system: 11 };
/** A host label under the prefix the Metal3Cluster names for CAPM3's label sync. */
const SLOT_LABEL = 'rack.metal3-ts.test/slot';

let namespace = '';
let capi: ClusterApiManager | undefined;
let operator: OperatorProcess | undefined;
let provider: ProviderProcess | undefined;
let providerWebhook: ProviderWebhook | undefined;

interface Condition { type: string; status: string; reason?: string; message?: string }
interface Machine {
  metadata: { name: string; annotations?: Record<string, string> };
  spec: { providerID?: string; infrastructureRef: { name: string } };
  status?: { phase?: string; nodeRef?: { name: string }; conditions?: Condition[] };
}
interface M3M { metadata: { annotations?: Record<string, string> }; status?: { conditions?: Condition[] } }
interface Host {
  metadata: { name: string };
  spec: { consumerRef?: { name: string } };
  status?: { provisioning?: { state?: string; image?: { url?: string } } };
}

const list = async <T>(kind: string, selector?: string) =>
  (await kubectl.json<{ items: T[] }>(['get', kind, '-n', namespace, ...(selector ? ['-l', selector] : [])])).items;
const workerMachines = () => list<Machine>('machines.cluster.x-k8s.io', `cluster.x-k8s.io/deployment-name=${MD}`);
const host = (name: string) => kubectl.json<Host>(['get', 'bmh', name, '-n', namespace]);
const scale = (replicas: number) => kubectl.ok(['scale', 'machinedeployment', MD, '-n', namespace, `--replicas=${replicas}`]);
const nodeProviderID = async (name: string) => {
  const result = await workload.run(['get', 'node', name, '-o', 'jsonpath={.spec.providerID}']);
  return result.code === 0 ? result.stdout : undefined;
};
const records = async (system: number) =>
  (await (await fetch(`${env.agentSimulatorUrl}/records/${env.systems[system]!.uuid}`)).json()) as SystemRecords;
const hostOf = (machine: Machine) => machine.spec.providerID?.split('/')[3] ?? '';

async function runningWorkers(count: number, what: string): Promise<Machine[]> {
  let last: Machine[] = [];
  return waitFor(async () => {
    last = await workerMachines();
    return last.length === count && last.every((m) => m.status?.phase === 'Running') ? last : undefined;
  }, { timeoutMs: minutes(6), intervalMs: 1_000, what }).catch((error: Error) => {
    throw new Error(`${error.message}; machines: ${JSON.stringify(last.map((m) => [m.metadata.name, m.status?.phase]))}`);
  });
}

beforeAll(async () => {
  await installProviderCrds(kubectl, env);
  // The servers' Nodes are named after their hosts; a Node of that name left in the shared
  // workload cluster by another run would keep its old providerID.
  for (const name of [CONTROL_PLANE_HOST, ...WORKER_HOSTS, LATE_HOST].map((h) => h.name)) {
    await workload.run(['delete', 'node', name, '--ignore-not-found']);
  }
  namespace = await createUniqueNamespace(kubectl, 'e2e-md');
  capi = await startClusterApiManager({ env, stateDir: env.stateDir, namespace, label: namespace });
  operator = startOperatorProcess({ env, namespace, label: `md-${namespace}` });
  // CAPM3's webhooks, as its install registers them: every Metal3* object below, Cluster API's clones included, is admitted by the provider.
  providerWebhook = await prepareProviderWebhook({ target: env, dir: join(env.stateDir, 'webhooks', namespace), name: `md-${namespace}`, namespace });
  provider = startProviderProcess({ env, namespace, label: `md-${namespace}`, extraEnv: providerWebhook.providerEnv });
  await providerWebhook.register(provider.process);
  const hosts = [
    { ...CONTROL_PLANE_HOST, labels: { role: 'control-plane' } },
    ...WORKER_HOSTS.map((h) => ({ ...h, labels: { role: 'worker', [SLOT_LABEL]: `s${h.system}` } })),
  ];
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    ...hostObjects({ env, namespace, hosts: hosts.map((h) => ({ name: h.name, system: env.systems[h.system]!, labels: h.labels, spec: { online: false } })) }),
    ...sampleClusterObjects({ env, namespace, name: CLUSTER, watchLabels: capi.watchLabels,
      controlPlaneHostSelector: { role: 'control-plane' }, workerHostSelector: { role: 'worker' }, workerReplicas: 0 }),
  ] }));
  await kubectl.ok(['annotate', 'metal3cluster', CLUSTER, '-n', namespace, 'metal3.io/metal3-label-sync-prefixes=rack.metal3-ts.test']);
}, minutes(5));

afterAll(async () => {
  // Without its server (stopped below), failurePolicy Fail would refuse the clean-up's writes.
  await providerWebhook?.unregister();
  await tearDownClusterApiFile({ env, kubectl, workload, namespace, clusterApiRan: capi !== undefined,
    processes: [provider, operator, capi], nodeNames: [CONTROL_PLANE_HOST, ...WORKER_HOSTS, LATE_HOST].map((h) => h.name) });
}, minutes(10));

describe('kubectl scale machinedeployment provisions and releases servers', () => {
  it('brings up the control plane Machine on its host, so Cluster API links worker Nodes', async () => {
    const cluster = await waitFor(async () => {
      const found = await kubectl.json<{ status?: { conditions?: Condition[] } }>(['get', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace]);
      return found.status?.conditions?.find((c) => c.type === 'ControlPlaneInitialized' && c.status === 'True') ? found : undefined;
    }, { timeoutMs: minutes(6), intervalMs: 2_000, what: 'ControlPlaneInitialized' });
    expect(cluster.status?.conditions?.find((c) => c.type === 'InfrastructureReady')?.status).toBe('True');
    expect((await host(CONTROL_PLANE_HOST.name)).status?.provisioning?.state).toBe('provisioned');
    expect(await workerMachines()).toHaveLength(0);
  });

  it('scale to 2: two worker hosts are provisioned, two Machines run with metal3:// providerIDs their Nodes carry, with their hosts\' synced labels', async () => {
    await scale(2);
    const machines = await runningWorkers(2, 'two Running workers');
    for (const machine of machines) {
      const hostName = hostOf(machine);
      expect(machine.spec.providerID).toBe(`metal3://${namespace}/${hostName}/${machine.spec.infrastructureRef.name}`);
      expect(WORKER_HOSTS.map((h) => h.name)).toContain(hostName);
      expect((await host(hostName)).status?.provisioning?.state).toBe('provisioned');
      expect(await nodeProviderID(machine.status!.nodeRef!.name)).toBe(machine.spec.providerID);
      const system = WORKER_HOSTS.find((h) => h.name === hostName)!.system;
      expect((await records(system)).imageWrites.at(-1)).toMatchObject({ outcome: 'written', url: env.images[0]!.url });
      // CAPM3's label sync: once Cluster API set the Machine's nodeRef, the Node carries its host's label under the prefix.
      const nodeName = machine.status!.nodeRef!.name;
      const slot = await waitFor(async () => {
        const node = await workload.json<{ metadata: { labels?: Record<string, string> } }>(['get', 'node', nodeName]);
        return node.metadata.labels?.[SLOT_LABEL];
      }, { timeoutMs: minutes(1), intervalMs: 1_000, what: `Node ${nodeName} to carry ${SLOT_LABEL}` });
      expect(slot).toBe(`s${system}`);
    }
    // The Metal3Machines the MachineSet controller cloned went through the provider's validating webhook.
    const admitted = readFileSync(provider!.logPath, 'utf8').split('\n').filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { message: string; kind?: string; name?: string })
      .filter((entry) => entry.message === 'validate create' && entry.kind === 'Metal3Machine').map((entry) => entry.name);
    expect(admitted).toEqual(expect.arrayContaining(machines.map((machine) => machine.spec.infrastructureRef.name)));
  });

  it('scale to 1 with cluster.x-k8s.io/delete-machine: that Machine goes, its host is available again and its Node gone', async () => {
    const [keep, remove] = await workerMachines() as [Machine, Machine];
    await kubectl.ok(['annotate', 'machines.cluster.x-k8s.io', remove.metadata.name, '-n', namespace, 'cluster.x-k8s.io/delete-machine=yes']);
    await scale(1);
    const released = hostOf(remove);
    await waitFor(async () => {
      const current = await host(released);
      return current.status?.provisioning?.state === 'available' && !current.spec.consumerRef ? current : undefined;
    }, { timeoutMs: minutes(4), intervalMs: 1_000, what: `${released} to be available again` });
    const [left] = await runningWorkers(1, 'one Running worker');
    expect(left!.metadata.name).toBe(keep.metadata.name);
    await waitFor(async () => ((await nodeProviderID(remove.status!.nodeRef!.name)) === undefined ? true : undefined),
      { timeoutMs: minutes(2), what: `Node ${remove.status!.nodeRef!.name} to be deleted` });
  });

  it('a new Metal3MachineTemplate with another image rolls the workers, never more than one extra Machine at once', async () => {
    const v2 = env.images[1]!;
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify(workerTemplate({ namespace, name: `${CLUSTER}-workers-v2`, image: v2, hostSelector: { role: 'worker' } })));
    let most = 0;
    const watching = new AbortController();
    const watcher = (async () => {
      while (!watching.signal.aborted) {
        most = Math.max(most, (await workerMachines()).length);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    try {
      await kubectl.ok(['patch', 'machinedeployment', MD, '-n', namespace, '--type=merge', '-p',
        JSON.stringify({ spec: { template: { spec: { infrastructureRef: { name: `${CLUSTER}-workers-v2` } } } } })]);
      const [rolled] = await waitFor(async () => {
        const machines = await workerMachines();
        if (machines.length !== 1 || machines[0]!.status?.phase !== 'Running') return undefined;
        const m3m = await kubectl.json<M3M>(['get', 'm3m', machines[0]!.spec.infrastructureRef.name, '-n', namespace]);
        return m3m.metadata.annotations?.['cluster.x-k8s.io/cloned-from-name'] === `${CLUSTER}-workers-v2` ? machines : undefined;
      }, { timeoutMs: minutes(8), intervalMs: 1_000, what: 'the rollout to the v2 template' });
      const hostName = hostOf(rolled!);
      expect((await host(hostName)).status?.provisioning?.image?.url).toBe(v2.url);
      const system = WORKER_HOSTS.find((h) => h.name === hostName)!.system;
      expect((await records(system)).imageWrites.at(-1)).toMatchObject({ outcome: 'written', url: v2.url });
    } finally {
      watching.abort();
      await watcher;
    }
    expect(most).toBe(2);
  });

  it('scale past the free hosts: the extra Machine waits with a readable condition and takes a host as soon as one is added', async () => {
    await scale(4);
    const waiting = await waitFor(async () => {
      for (const machine of await workerMachines()) {
        const m3m = await kubectl.json<M3M>(['get', 'm3m', machine.spec.infrastructureRef.name, '-n', namespace]);
        const associate = m3m.status?.conditions?.find((c) => c.type === 'AssociateBareMetalHost');
        if (associate?.reason === 'AssociateBareMetalHostFailed') return { machine, associate };
      }
      return undefined;
    }, { timeoutMs: minutes(3), intervalMs: 1_000, what: 'a worker Machine waiting for a host' });
    expect(waiting.associate.message).toContain('no free BareMetalHost');
    expect(waiting.machine.status?.phase).not.toBe('Running');

    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: hostObjects({ env, namespace,
      hosts: [{ name: LATE_HOST.name, system: env.systems[LATE_HOST.system]!, labels: { role: 'worker' }, spec: { online: false } }] }) }));
    const machines = await runningWorkers(4, 'four Running workers');
    expect(machines.map(hostOf)).toContain(LATE_HOST.name);
    expect((await host(LATE_HOST.name)).spec.consumerRef?.name).toBe(
      machines.find((m) => hostOf(m) === LATE_HOST.name)!.spec.infrastructureRef.name);
  });

  it('clusterctl describe cluster shows all five Machines ready and available, and the workers available and up to date', async () => {
    const describeCluster = async () => (await runClusterctl(['describe', 'cluster', CLUSTER, '-n', namespace,
      '--kubeconfig', env.kubeconfig, '--show-conditions', 'all', '--grouping=false'])).split('\n');
    const rows = (lines: string[], pattern: RegExp) => lines.filter((line) => pattern.test(line));
    // Each Machine's Ready plus the Metal3Cluster's; each Machine's Available plus the MachineDeployment's.
    const readyRows = (lines: string[]) => rows(lines, /─Ready\s+True\s+Ready\b/).length;
    const availableRows = (lines: string[]) => rows(lines, /─Available\s+True\s+Available\b/).length;
    // The MachineDeployment turns Available a moment after its last Machine runs; the rows are
    // written by different controllers, so wait until they all agree (the output is kept for a failure).
    let last: string[] = [];
    const lines = await waitFor(async () => {
      last = await describeCluster();
      return rows(last, /─WorkersAvailable\s+True\b/).length === 1 && readyRows(last) === 6 && availableRows(last) === 6 ? last : undefined;
    }, { timeoutMs: minutes(2), intervalMs: 2_000, what: 'clusterctl to show WorkersAvailable, and every Machine Ready and Available' })
      .catch((error: Error) => {
        throw new Error(`${error.message}; last output:\n${last.join('\n')}`);
      });
    expect(rows(lines, new RegExp(`Cluster ${namespace}/${CLUSTER}\\s+5/5\\b`))).toHaveLength(1);
    expect(rows(lines, new RegExp(`Machine ${namespace}/`))).toHaveLength(5);
    expect(rows(lines, /─(Ready|Available|NodeHealthy|NodeReady|InfrastructureReady|BaremetalInfrastructureReady)\s+False\b/)).toEqual([]);
    // Cluster API compares each Node's kubelet version with its Machine's spec.version: a worker
    // whose Node runs another one stays "Updating" and its MachineDeployment rolling out for good.
    const conditionOf = (conditions: Condition[] | undefined, type: string) => conditions?.find((c) => c.type === type)?.status;
    const deployment = await waitFor(async () => {
      const found = await kubectl.json<{ status?: { conditions?: Condition[] } }>(['get', 'machinedeployments.cluster.x-k8s.io', MD, '-n', namespace]);
      return conditionOf(found.status?.conditions, 'MachinesUpToDate') === 'True' ? found : undefined;
    }, { timeoutMs: minutes(1), intervalMs: 1_000, what: `MachineDeployment ${MD} to count its Machines up to date` });
    expect(conditionOf(deployment.status?.conditions, 'RollingOut')).toBe('False');
    const workers = await workerMachines();
    expect(workers).toHaveLength(4);
    expect(workers.map((machine) => conditionOf(machine.status?.conditions, 'UpToDate'))).toEqual(['True', 'True', 'True', 'True']);
  });
});
