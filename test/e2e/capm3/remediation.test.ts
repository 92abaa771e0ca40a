import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { startClusterApiManager, type ClusterApiManager } from '../../../hack/capi/index.ts';
import { sampleClusterObjects, workerHealthCheckObjects } from '../../../hack/dev/sample-cluster.ts';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { tearDownClusterApiFile } from '../../support/cluster-api-teardown.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { markNodeNotReady } from '../../support/node-conditions.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';

// Metal3 remediation end to end: Cluster API's MachineHealthCheck finds a NotReady Node and
// creates a Metal3Remediation; the provider power cycles the server through the host's reboot
// annotation (the operator drives Ironic, the agent simulator boots the installed OS, whose
// kubelet reports the Node Ready again). While the server is off its Node carries the
// out-of-service taint, as CAPM3 does on a management cluster of Kubernetes 1.28 or later (the
// stack's is newer). A server whose OS stays broken is given up after the retry limit: Cluster
// API replaces its Machine, on another host.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const workload = new Kubectl({ kubectl: env.kubectl, kubeconfig: env.workload.kubeconfig });
const minutes = (n: number) => n * 60_000;
jest.setTimeout(minutes(20));

const CLUSTER = 'remedy';
const MD = `${CLUSTER}-workers`;
// Servers 20-23 of the test stack are this file's own. The spare joins the workers' pool only
// once both workers run, so the replacement Machine can only land there.
const CONTROL_PLANE_HOST = { name: 'rem-cp', system: 20 };
const WORKER_HOSTS = [{ name: 'rem-a', system: 21 }, { name: 'rem-b', system: 22 }];
const SPARE_HOST = { name: 'rem-c', system: 23 };
const ALL_HOSTS = [CONTROL_PLANE_HOST, ...WORKER_HOSTS, SPARE_HOST];
const RETRY_LIMIT = 1;
// A power cycle took ~55 s on a loaded 2-core machine; the timeout leaves room for that.
const HEALTH_CHECK = { unhealthySeconds: 10, retryLimit: RETRY_LIMIT, timeoutSeconds: 90 };
const UNHEALTHY = 'capm3.metal3.io/unhealthy';

let namespace = '';
let capi: ClusterApiManager | undefined;
let operator: OperatorProcess | undefined;
let provider: ProviderProcess | undefined;

interface Condition { type: string; status: string; reason?: string; message?: string }
interface Machine {
  metadata: { name: string; uid: string; deletionTimestamp?: string };
  spec: { providerID?: string; infrastructureRef: { name: string } };
  status?: { phase?: string; nodeRef?: { name: string }; conditions?: Condition[] };
}
interface Host {
  metadata: { name: string; annotations?: Record<string, string> };
  spec: { consumerRef?: { name: string } };
  status?: { provisioning?: { state?: string }; poweredOn?: boolean };
}
interface Taint { key: string; value?: string; effect: string; timeAdded?: string }
interface Node {
  metadata: { name: string; uid: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { providerID?: string; taints?: Taint[] };
  status?: { conditions?: Condition[] };
}
interface Remediation { status?: { phase?: string; retryCount?: number } }
interface HealthCheck { status?: { expectedMachines?: number; currentHealthy?: number; conditions?: Condition[] } }

const list = async <T>(kind: string, selector?: string) =>
  (await kubectl.json<{ items: T[] }>(['get', kind, '-n', namespace, ...(selector ? ['-l', selector] : [])])).items;
const workerMachines = () => list<Machine>('machines.cluster.x-k8s.io', `cluster.x-k8s.io/deployment-name=${MD}`);
const host = (name: string) => kubectl.json<Host>(['get', 'bmh', name, '-n', namespace]);
const hostOf = (machine: Machine) => machine.spec.providerID?.split('/')[3] ?? '';
const systemOf = (hostName: string) => env.systems[ALL_HOSTS.find((h) => h.name === hostName)!.system]!;
const records = async (hostName: string) =>
  (await (await fetch(`${env.agentSimulatorUrl}/records/${systemOf(hostName).uuid}`)).json()) as SystemRecords;
const setOsHealthy = async (hostName: string, healthy: boolean) => {
  const response = await fetch(`${env.agentSimulatorUrl}/systems/${systemOf(hostName).uuid}/os`,
    { method: 'PUT', body: JSON.stringify({ healthy }) });
  expect(response.status).toBe(200);
};
const getOptional = async <T>(kubeClient: Kubectl, args: string[]): Promise<T | undefined> => {
  const result = await kubeClient.run(['get', ...args, '-o', 'json']);
  return result.code === 0 ? JSON.parse(result.stdout) as T : undefined;
};
const node = (name: string) => getOptional<Node>(workload, ['node', name]);
const machine = (name: string) => getOptional<Machine>(kubectl, ['machines.cluster.x-k8s.io', name, '-n', namespace]);
const remediation = (name: string) => getOptional<Remediation>(kubectl, ['metal3remediations', name, '-n', namespace]);
const ready = (found: Node | undefined) => found?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
const outOfService = (found: Node | undefined) => found?.spec?.taints?.find((t) => t.key === 'node.kubernetes.io/out-of-service');
/** Disk boots (the installed OS coming up) since `since`. */
const diskBootsSince = async (hostName: string, since: string) =>
  (await records(hostName)).boots.filter((boot) => boot.into === 'disk' && boot.at > since);

const HEALTH_CHECK_NAME = `${MD}-health`;
const healthCheck = () => getOptional<HealthCheck>(kubectl, ['machinehealthchecks.cluster.x-k8s.io', HEALTH_CHECK_NAME, '-n', namespace]);

/** Where a remediation that never started got stuck: what Cluster API and the provider each saw. */
async function remediationDiagnosis(machineName: string, nodeName: string): Promise<string> {
  const conditionsOf = (conditions: Condition[] | undefined, types: string[]) =>
    (conditions ?? []).filter((c) => types.includes(c.type)).map((c) => `${c.type}=${c.status} (${c.reason ?? ''}: ${c.message ?? ''})`).join(', ');
  const [check, found, current, workloadNode] = await Promise.all(
    [healthCheck(), remediation(machineName), machine(machineName), node(nodeName)]);
  return [
    `MachineHealthCheck status ${JSON.stringify(check?.status)}`,
    `Machine conditions: ${conditionsOf(current?.status?.conditions, ['HealthCheckSucceeded', 'OwnerRemediated', 'NodeReady', 'NodeHealthy'])}`,
    `Node Ready: ${conditionsOf(workloadNode?.status?.conditions, ['Ready'])}`,
    found ? `the Metal3Remediation exists with status ${JSON.stringify(found.status)}` : 'no Metal3Remediation exists',
  ].join('; ');
}

async function runningWorkers(count: number, what: string, timeoutMs: number): Promise<Machine[]> {
  let last: Machine[] = [];
  return waitFor(async () => {
    last = (await workerMachines()).filter((m) => !m.metadata.deletionTimestamp);
    return last.length === count && last.every((m) => m.status?.phase === 'Running' && m.status.nodeRef) ? last : undefined;
  }, { timeoutMs, intervalMs: 1_000, what }).catch((error: Error) => {
    throw new Error(`${error.message}; machines: ${JSON.stringify(last.map((m) => [m.metadata.name, m.status?.phase, hostOf(m)]))}`);
  });
}

beforeAll(async () => {
  await installProviderCrds(kubectl, env);
  for (const { name } of ALL_HOSTS) await workload.run(['delete', 'node', name, '--ignore-not-found']);
  namespace = await createUniqueNamespace(kubectl, 'e2e-rem');
  capi = await startClusterApiManager({ env, stateDir: env.stateDir, namespace, label: namespace });
  operator = startOperatorProcess({ env, namespace, label: `rem-${namespace}` });
  provider = startProviderProcess({ env, namespace, label: `rem-${namespace}` });
  const hosts = [
    { ...CONTROL_PLANE_HOST, labels: { role: 'control-plane' } },
    ...WORKER_HOSTS.map((h) => ({ ...h, labels: { role: 'worker' } })),
    { ...SPARE_HOST, labels: { role: 'spare' } },
  ];
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    // No cleaning: what is on the disks does not matter here, and each skipped ramdisk boot saves minutes on a loaded machine.
    ...hostObjects({ env, namespace, hosts: hosts.map((h) => ({ name: h.name, system: env.systems[h.system]!, labels: h.labels,
      spec: { online: false, automatedCleaningMode: 'disabled' } })) }),
    ...sampleClusterObjects({ env, namespace, name: CLUSTER, watchLabels: capi.watchLabels,
      controlPlaneHostSelector: { role: 'control-plane' }, workerHostSelector: { role: 'worker' }, workerReplicas: 2 }),
  ] }));
}, minutes(5));

afterAll(async () => {
  for (const { name } of ALL_HOSTS) await setOsHealthy(name, true).catch(() => undefined);
  await tearDownClusterApiFile({ env, kubectl, workload, namespace, clusterApiRan: capi !== undefined,
    processes: [provider, operator, capi], nodeNames: ALL_HOSTS.map((h) => h.name) });
}, minutes(10));

describe('a MachineHealthCheck with a Metal3RemediationTemplate remediates worker Nodes', () => {
  let workers: Machine[] = [];

  it('brings up the control plane and two health-checked workers', async () => {
    workers = await runningWorkers(2, 'two Running workers', minutes(12));
    // The MachineHealthCheck only reads Nodes once the control plane is initialized.
    await waitFor(async () => {
      const found = await kubectl.json<{ status?: { conditions?: Condition[] } }>(['get', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace]);
      return found.status?.conditions?.some((c) => c.type === 'ControlPlaneInitialized' && c.status === 'True') ? true : undefined;
    }, { timeoutMs: minutes(5), intervalMs: 2_000, what: 'ControlPlaneInitialized' });
    expect(workers.map(hostOf).sort()).toEqual(WORKER_HOSTS.map((h) => h.name));
    // Cluster API's MachineHealthCheck starts watching the workload Nodes in its first reconcile
    // after ControlPlaneInitialized, and a Cluster's conditions do not wake it. Created now, it
    // reconciles at once; once it counts both workers healthy it sees a Node go NotReady.
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items:
      workerHealthCheckObjects({ namespace, clusterName: CLUSTER, machineDeployment: MD, watchLabels: capi!.watchLabels, check: HEALTH_CHECK }) }));
    await waitFor(async () => {
      const found = await healthCheck();
      return found?.status?.currentHealthy === 2 && found.status.expectedMachines === 2 ? true : undefined;
    }, { timeoutMs: minutes(2), intervalMs: 1_000, what: `MachineHealthCheck ${HEALTH_CHECK_NAME} to count two healthy workers` });
    // The spare is only now a candidate for workers: both are placed.
    await kubectl.ok(['label', 'bmh', SPARE_HOST.name, '-n', namespace, 'role=worker', '--overwrite']);
  });

  it('a NotReady Node is power cycled back to Ready and keeps its Machine; a broken one is replaced on another host', async () => {
    expect(workers).toHaveLength(2);
    const [recovering, broken] = workers as [Machine, Machine];
    await Promise.all([rebootBringsNodeBack(recovering), brokenMachineIsReplaced(broken)]);
    const [left, replacement] = await runningWorkers(2, 'two Running workers again', minutes(6))
      .then((machines) => [machines.find((m) => m.metadata.name === recovering.metadata.name), machines.find((m) => m.metadata.name !== recovering.metadata.name)]);
    expect(left?.metadata.uid).toBe(recovering.metadata.uid);
    expect(hostOf(replacement!)).toBe(SPARE_HOST.name);
    expect((await host(SPARE_HOST.name)).status?.provisioning?.state).toBe('provisioned');
  });
});

async function rebootBringsNodeBack(target: Machine): Promise<void> {
  const hostName = hostOf(target);
  const nodeName = target.status!.nodeRef!.name;
  const before = (await node(nodeName))!;
  expect(ready(before)).toBe('True');
  await workload.ok(['label', 'node', nodeName, 'remediation-test=kept']);
  await workload.ok(['annotate', 'node', nodeName, 'remediation-test/note=kept']);
  const since = new Date().toISOString();
  await markNodeNotReady(workload, nodeName);

  // Cluster API names the remediation after the Machine.
  const started = await waitFor(async () => {
    const found = await remediation(target.metadata.name);
    return found?.status?.phase ? found : undefined;
  }, { timeoutMs: minutes(3), what: `Metal3Remediation ${target.metadata.name} to start` })
    .catch(async (error: Error) => { throw new Error(`${error.message}; ${await remediationDiagnosis(target.metadata.name, nodeName)}`); });
  expect(['Running', 'Waiting']).toContain(started.status?.phase);
  // Once the server is off the Node is taken out of service: tainted, not deleted.
  const taint = await waitFor(async () => outOfService(await node(nodeName)),
    { timeoutMs: minutes(3), intervalMs: 500, what: `Node ${nodeName} to be tainted out-of-service` });
  expect(taint).toMatchObject({ value: 'nodeshutdown', effect: 'NoExecute' });
  // The server came up again from its disk after that, and its kubelet reported the same Node Ready.
  const boots = await waitFor(async () => {
    const found = await diskBootsSince(hostName, since);
    return found.length >= 1 ? found : undefined;
  }, { timeoutMs: minutes(3), intervalMs: 1_000, what: `${hostName} to boot from its disk again` });
  expect(Date.parse(boots[0]!.at)).toBeGreaterThanOrEqual(Date.parse(taint.timeAdded!));
  const back = await waitFor(async () => {
    const found = await node(nodeName);
    return found && ready(found) === 'True' && !outOfService(found) ? found : undefined;
  }, { timeoutMs: minutes(2), intervalMs: 1_000, what: `Node ${nodeName} back, Ready, without the out-of-service taint` });
  expect(back.metadata.uid).toBe(before.metadata.uid);
  expect(back.metadata.labels?.['remediation-test']).toBe('kept');
  expect(back.metadata.annotations?.['remediation-test/note']).toBe('kept');
  expect(back.spec?.providerID).toBe(target.spec.providerID);
  const registered = (await records(hostName)).nodes.filter((record) => record.at > since);
  expect(registered.map((record) => record.kind)).toEqual(['node-registered']);
  const events = await kubectl.json<{ items: { reason: string; regarding: { kind: string; name: string } }[] }>(
    ['get', 'events.events.k8s.io', '-n', namespace]);
  expect(events.items.filter((e) => e.regarding.kind === 'Metal3Remediation' && e.regarding.name === target.metadata.name)
    .map((e) => e.reason)).toEqual(expect.arrayContaining(['NodeOutOfService', 'NodeInService']));
  // Healthy again: Cluster API deletes the remediation; the Machine and its host stay.
  await waitFor(async () => ((await remediation(target.metadata.name)) === undefined ? true : undefined),
    { timeoutMs: minutes(1), what: `Metal3Remediation ${target.metadata.name} to be deleted by Cluster API` });
  const kept = (await machine(target.metadata.name))!;
  expect(kept.metadata.uid).toBe(target.metadata.uid);
  expect(kept.metadata.deletionTimestamp).toBeUndefined();
  const held = await host(hostName);
  expect(held.spec.consumerRef?.name).toBe(target.spec.infrastructureRef.name);
  expect(held.metadata.annotations?.[UNHEALTHY]).toBeUndefined();
  expect(Object.keys(held.metadata.annotations ?? {}).filter((key) => key.startsWith('reboot.metal3.io'))).toEqual([]);
}

async function brokenMachineIsReplaced(target: Machine): Promise<void> {
  const hostName = hostOf(target);
  const nodeName = target.status!.nodeRef!.name;
  await setOsHealthy(hostName, false);
  const since = new Date().toISOString();
  await markNodeNotReady(workload, nodeName);

  // Watch the Machine until Cluster API has deleted it, noting what the remediation did on the way.
  let ownerRemediated: Condition | undefined;
  let lastRemediation: Remediation | undefined;
  await waitFor(async () => {
    const current = await machine(target.metadata.name);
    const found = await remediation(target.metadata.name);
    if (found?.status) lastRemediation = found;
    const condition = current?.status?.conditions?.find((c) => c.type === 'OwnerRemediated');
    if (condition?.status === 'False') ownerRemediated = condition;
    return current === undefined ? true : undefined;
  }, { timeoutMs: minutes(8), intervalMs: 1_000, what: `Machine ${target.metadata.name} to be remediated away` }).catch((error: Error) => {
    throw new Error(`${error.message}; last remediation status ${JSON.stringify(lastRemediation?.status)}`);
  });
  // Set False by the provider (WaitingForRemediation); the MachineSet only deletes Machines
  // whose owner remediation was asked for that way, and then says MachineDeleting itself.
  expect(ownerRemediated?.status).toBe('False');
  expect(lastRemediation?.status).toMatchObject({ phase: 'Deleting machine', retryCount: RETRY_LIMIT });
  const events = await kubectl.json<{ items: { reason: string; regarding: { kind: string; name: string } }[] }>(
    ['get', 'events.events.k8s.io', '-n', namespace]);
  expect(events.items.filter((e) => e.regarding.kind === 'Metal3Remediation' && e.regarding.name === target.metadata.name)
    .map((e) => e.reason)).toEqual(expect.arrayContaining(['RemediationStarted', 'RemediationRetried', 'RemediationGaveUp']));
  // One power cycle plus one retry, each a boot from disk whose kubelet never came up.
  const booted = (await records(hostName)).nodes.filter((record) => record.at > since && record.kind !== 'node-deleted');
  expect(booted.map((record) => record.kind)).toEqual(['node-not-registered', 'node-not-registered']);
  expect((await diskBootsSince(hostName, since)).length).toBeGreaterThanOrEqual(RETRY_LIMIT + 1);
  // The host is released but marked, so the replacement chooses the spare.
  const released = await waitFor(async () => {
    const current = await host(hostName);
    return !current.spec.consumerRef ? current : undefined;
  }, { timeoutMs: minutes(3), intervalMs: 1_000, what: `${hostName} to be released` });
  expect(released.metadata.annotations?.[UNHEALTHY]).toBe('capm3/UnhealthyNode');
}
