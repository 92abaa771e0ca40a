import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  installClusterApiCrds, startClusterApiManager, workloadKubeconfigSecret, type ClusterApiManager,
} from '../../../hack/capi/index.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { installTestInfrastructureCrds, testInfraGroup } from './test-infrastructure.ts';

// Core Cluster API's real manager against the shared test stack, scoped to one fresh namespace
// (webhooks by namespaceSelector, controllers by watch-filter label), with a hand-driven
// stand-in infrastructure provider and the stack's workload API server for Nodes.
const env = readStackEnv();
const kubectl = new Kubectl(env);
const workload = new Kubectl({ kubectl: env.kubectl, kubeconfig: env.workload.kubeconfig });
const clusterName = 'c1';
const md = 'workers';
const capi = (plural: string) => `${plural}.cluster.x-k8s.io`;
const infra = (plural: string) => `${plural}.${testInfraGroup}`;

interface Condition { type: string; status: string; reason?: string; message?: string }
interface KubeObject {
  metadata: { name: string; generation?: number; labels?: Record<string, string>; ownerReferences?: { kind: string; name: string }[] };
  spec?: Record<string, unknown>;
  status?: { observedGeneration?: number; conditions?: Condition[]; phase?: string; nodeRef?: { name: string };
    initialization?: Record<string, boolean>; availableReplicas?: number };
}

let namespace = '';
let manager: ClusterApiManager | undefined;

const create = (object: unknown) => kubectl.ok(['create', '-f', '-'], JSON.stringify(object));
const get = (resource: string, name: string) => kubectl.json<KubeObject>(['-n', namespace, 'get', resource, name]);
const list = async (resource: string, selector: string) =>
  (await kubectl.json<{ items: KubeObject[] }>(['-n', namespace, 'get', resource, '-l', selector])).items;
const condition = (object: KubeObject, type: string) => object.status?.conditions?.find((entry) => entry.type === type);
const patch = (resource: string, name: string, body: unknown, subresource?: 'status') =>
  kubectl.ok(['-n', namespace, 'patch', resource, name, '--type=merge', '-p', JSON.stringify(body),
    ...(subresource ? ['--subresource', subresource] : [])]);

function machineDeployment(name: string, bootstrap: Record<string, string>) {
  const labels = manager!.watchLabels;
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineDeployment',
    metadata: { name, namespace, labels },
    spec: {
      clusterName,
      selector: {},
      template: {
        // Machines inherit the template's labels: the watch-filter label must be here too.
        metadata: { labels },
        spec: {
          clusterName,
          bootstrap,
          infrastructureRef: { apiGroup: testInfraGroup, kind: 'TestMachineTemplate', name: 'workers' },
        },
      },
    },
  };
}

/** A Node as a kubelet would register it, in the workload cluster only. */
async function registerNode(name: string, providerID: string): Promise<void> {
  await workload.ok(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'metal3-ts.test/namespace': namespace } }, spec: { providerID },
  }));
}

async function reportKubeletConditions(name: string): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const entry = (type: string, status: string) => ({ type, status, reason: 'KubeletReported', message: '', lastHeartbeatTime: now,
    lastTransitionTime: now });
  await workload.ok(['patch', 'node', name, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { conditions: [
    entry('Ready', 'True'), entry('MemoryPressure', 'False'), entry('DiskPressure', 'False'), entry('PIDPressure', 'False')] } })]);
}

/** What an infrastructure provider reports once the server is provisioned. */
async function provisionInfraMachine(name: string, providerID: string): Promise<void> {
  await patch(infra('testmachines'), name, { spec: { providerID } });
  await patch(infra('testmachines'), name, { status: { initialization: { provisioned: true } } }, 'status');
}

async function waitForMachine(name: string, what: string, done: (machine: KubeObject) => boolean): Promise<KubeObject> {
  return waitFor(async () => {
    const machine = await get(capi('machines'), name);
    return done(machine) ? machine : undefined;
  }, { what: `Machine ${name} ${what}`, timeoutMs: 120_000 });
}

beforeAll(async () => {
  await installClusterApiCrds(env);
  await installTestInfrastructureCrds(kubectl);
  namespace = await createUniqueNamespace(kubectl, 'capi');
  manager = await startClusterApiManager({ env, stateDir: env.stateDir, namespace, label: namespace });
}, 300_000);

afterAll(async () => {
  try {
    if (manager && namespace) {
      // Deleting the Cluster while the manager runs lets Cluster API remove what it created.
      await kubectl.ok(['-n', namespace, 'delete', capi('clusters'), '--all', '--wait=false']);
      await waitFor(async () => ((await list(capi('clusters'), 'cluster.x-k8s.io/watch-filter')).length === 0 ? true : undefined),
        { what: `Clusters in ${namespace} deleted`, timeoutMs: 120_000 });
    }
  } finally {
    await manager?.stop();
    if (namespace) {
      await workload.ok(['delete', 'nodes', '-l', `metal3-ts.test/namespace=${namespace}`, '--ignore-not-found']);
      await deleteNamespace(kubectl, namespace);
    }
    kubectl.dispose();
    workload.dispose();
  }
}, 300_000);

describe('core Cluster API manager', () => {
  it('runs its webhooks: invalid objects are refused, MachineDeployments and Machines are defaulted', async () => {
    // The kubeconfig Secret first: the cluster cache retries a missing one only every 30 s.
    await create(workloadKubeconfigSecret(env, clusterName, namespace));
    await create({ apiVersion: `${testInfraGroup}/v1alpha1`, kind: 'TestCluster', metadata: { name: clusterName, namespace }, spec: {} });
    await create({ apiVersion: `${testInfraGroup}/v1alpha1`, kind: 'TestMachineTemplate', metadata: { name: 'workers', namespace },
      spec: { template: { spec: {} } } });
    await create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bootstrap-data', namespace,
      labels: { 'cluster.x-k8s.io/cluster-name': clusterName } }, type: 'cluster.x-k8s.io/secret', stringData: { value: '#cloud-config\n' } });

    const refused = await kubectl.run(['create', '-f', '-'], JSON.stringify({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster',
      metadata: { name: 'no-refs', namespace }, spec: { paused: true } }));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('one of spec.controlPlaneRef, spec.infrastructureRef or spec.topology must be set');

    await create({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name: clusterName, namespace, labels: manager!.watchLabels },
      spec: { infrastructureRef: { apiGroup: testInfraGroup, kind: 'TestCluster', name: clusterName } },
    });

    const noBootstrap = await kubectl.run(['create', '-f', '-'], JSON.stringify(machineDeployment('no-bootstrap', {})));
    expect(noBootstrap.code).not.toBe(0);
    expect(noBootstrap.stderr).toContain('expected either spec.template.spec.bootstrap.dataSecretName or spec.template.spec.bootstrap.configRef');

    await create(machineDeployment(md, { dataSecretName: 'bootstrap-data' }));
    const stored = await get(capi('machinedeployments'), md);
    expect(stored.metadata.labels).toMatchObject({ 'cluster.x-k8s.io/cluster-name': clusterName });
    expect(stored.spec).toMatchObject({
      replicas: 1,
      rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } },
      selector: { matchLabels: { 'cluster.x-k8s.io/cluster-name': clusterName, 'cluster.x-k8s.io/deployment-name': md } },
      template: { metadata: { labels: { 'cluster.x-k8s.io/cluster-name': clusterName, 'cluster.x-k8s.io/deployment-name': md } } },
    });
  });

  it('may write the Cluster API objects of its own watch filter, not those labelled for another (the fence on Cluster API\'s unfiltered watches)', async () => {
    const asManager = new Kubectl({ kubectl: env.kubectl, kubeconfig: manager!.kubeconfig });
    try {
      expect((await asManager.ok(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).trim()).toBe(`metal3-ts:capi-manager:${namespace}`);
      await create({
        apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster',
        metadata: { name: 'another-files', namespace, labels: { 'cluster.x-k8s.io/watch-filter': 'another-file' } },
        spec: { paused: true, infrastructureRef: { apiGroup: testInfraGroup, kind: 'TestCluster', name: 'another-files' } },
      });
      const refused = await asManager.run(['-n', namespace, 'label', capi('clusters'), 'another-files', 'touched=yes']);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(`metal3-ts:capi-manager:${namespace} may not write clusters ${namespace}/another-files, which is labelled cluster.x-k8s.io/watch-filter=another-file`);
      const refusedDelete = await asManager.run(['-n', namespace, 'delete', capi('clusters'), 'another-files', '--wait=false']);
      expect(refusedDelete.stderr).toContain('may not write clusters');
      expect((await get(capi('clusters'), 'another-files')).metadata.labels).not.toHaveProperty('touched');
      await asManager.ok(['-n', namespace, 'label', capi('clusters'), clusterName, 'touched=yes']);
      expect((await get(capi('clusters'), clusterName)).metadata.labels).toMatchObject({ touched: 'yes' });
    } finally {
      asManager.dispose();
      await kubectl.ok(['-n', namespace, 'delete', capi('clusters'), 'another-files', '--ignore-not-found']);
    }
  });

  it('runs its controllers: MachineDeployment -> MachineSet -> Machine with an infrastructure machine cloned from the template', async () => {
    const deployment = await waitFor(async () => {
      const current = await get(capi('machinedeployments'), md);
      return current.status?.observedGeneration === current.metadata.generation ? current : undefined;
    }, { what: 'MachineDeployment status.observedGeneration', timeoutMs: 60_000 });
    expect(deployment.status?.observedGeneration).toBe(deployment.metadata.generation);

    const [machineSet] = await waitFor(async () => {
      const sets = await list(capi('machinesets'), `cluster.x-k8s.io/deployment-name=${md}`);
      return sets.length > 0 ? sets : undefined;
    }, { what: 'a MachineSet', timeoutMs: 60_000 });
    expect(machineSet!.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'MachineDeployment', name: md })]);

    const [machine] = await waitFor(async () => {
      const machines = await list(capi('machines'), `cluster.x-k8s.io/deployment-name=${md}`);
      return machines.length === 1 ? machines : undefined;
    }, { what: 'one Machine', timeoutMs: 60_000 });
    expect(machine!.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'MachineSet', name: machineSet!.metadata.name })]);
    // The Machine defaulter ran on the Machine the MachineSet created.
    expect(machine!.spec).toMatchObject({ deletion: { nodeDeletionTimeoutSeconds: 10 } });

    const infraMachine = await waitFor(async () => {
      const found = await get(infra('testmachines'), machine!.metadata.name);
      return found.metadata.ownerReferences?.some((owner) => owner.kind === 'Machine') ? found : undefined;
    }, { what: 'the TestMachine owned by its Machine', timeoutMs: 60_000 });
    expect(infraMachine.metadata.labels).toMatchObject({ 'cluster.x-k8s.io/cluster-name': clusterName });
  });

  it('links a MachineDeployment Machine to its Node in the workload cluster, without bootstrap or control plane providers', async () => {
    await patch(infra('testclusters'), clusterName, { status: { initialization: { provisioned: true } } }, 'status');
    const cluster = await waitFor(async () => {
      const current = await get(capi('clusters'), clusterName);
      return condition(current, 'RemoteConnectionProbe')?.status === 'True' ? current : undefined;
    }, { what: 'Cluster RemoteConnectionProbe=True (the workload API server through <cluster>-kubeconfig)', timeoutMs: 120_000 });
    expect(cluster.status?.initialization).toMatchObject({ infrastructureProvisioned: true });

    // First Machine: its Node exists before the provider reports a providerID, so the same
    // reconcile finds it, although the control plane is not "initialized" (no Node watch yet).
    const [first] = await list(capi('machines'), `cluster.x-k8s.io/deployment-name=${md}`);
    const firstName = first!.metadata.name;
    await registerNode(`${namespace}-a`, `test://${namespace}-a`);
    await provisionInfraMachine(firstName, `test://${namespace}-a`);
    const running = await waitForMachine(firstName, 'Running', (machine) => machine.status?.phase === 'Running');
    expect(running.status?.nodeRef).toEqual({ name: `${namespace}-a` });
    expect(condition(await get(capi('clusters'), clusterName), 'ControlPlaneInitialized')).toMatchObject({
      status: 'False', message: 'Waiting for the first control plane machine to have status.nodeRef set' });

    // Second Machine: provisioned before its Node exists. With no control plane provider the
    // Cluster's control plane counts as initialized once a control-plane Machine has a Node;
    // only then does Cluster API watch Nodes and catch up.
    await kubectl.ok(['-n', namespace, 'scale', capi('machinedeployments'), md, '--replicas=2']);
    const second = await waitFor(async () => {
      const machines = await list(capi('machines'), `cluster.x-k8s.io/deployment-name=${md}`);
      return machines.find((machine) => machine.metadata.name !== firstName);
    }, { what: 'a second Machine', timeoutMs: 60_000 });
    await waitFor(async () => (await kubectl.run(['-n', namespace, 'get', infra('testmachines'), second.metadata.name])).code === 0 || undefined,
      { what: 'the second TestMachine', timeoutMs: 60_000 });
    await provisionInfraMachine(second.metadata.name, `test://${namespace}-b`);
    await waitForMachine(second.metadata.name, 'Provisioned', (machine) => machine.status?.phase === 'Provisioned');
    await registerNode(`${namespace}-b`, `test://${namespace}-b`);

    await create({ apiVersion: `${testInfraGroup}/v1alpha1`, kind: 'TestMachine', metadata: { name: 'control-plane-0', namespace }, spec: {} });
    await create({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Machine',
      metadata: { name: 'control-plane-0', namespace, labels: { ...manager!.watchLabels, 'cluster.x-k8s.io/control-plane': '' } },
      spec: { clusterName, bootstrap: { dataSecretName: 'bootstrap-data' },
        infrastructureRef: { apiGroup: testInfraGroup, kind: 'TestMachine', name: 'control-plane-0' } },
    });
    await registerNode(`${namespace}-cp`, `test://${namespace}-cp`);
    await provisionInfraMachine('control-plane-0', `test://${namespace}-cp`);
    await waitFor(async () => condition(await get(capi('clusters'), clusterName), 'ControlPlaneInitialized')?.status === 'True' || undefined,
      { what: 'Cluster ControlPlaneInitialized=True', timeoutMs: 120_000 });
    const caughtUp = await waitForMachine(second.metadata.name, 'Running', (machine) => machine.status?.phase === 'Running');
    expect(caughtUp.status?.nodeRef).toEqual({ name: `${namespace}-b` });

    // Available replicas need healthy Nodes: Ready=True alone leaves NodeHealthy Unknown until the
    // three pressure conditions are reported too, as a kubelet does.
    for (const node of [`${namespace}-a`, `${namespace}-b`]) await reportKubeletConditions(node);
    const available = await waitFor(async () => {
      const current = await get(capi('machinedeployments'), md);
      return current.status?.availableReplicas === 2 ? current : undefined;
    }, { what: 'MachineDeployment status.availableReplicas=2', timeoutMs: 120_000 });
    expect(condition(available, 'Available')?.status).toBe('True');
  });
});
