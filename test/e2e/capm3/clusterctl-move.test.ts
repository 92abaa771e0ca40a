import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { SystemRecords } from '../../../hack/agent-simulator/records.ts';
import { startClusterApiManager, startClusterctl, type ClusterApiManager } from '../../../hack/capi/index.ts';
import { sampleClusterObjects } from '../../../hack/dev/sample-cluster.ts';
import { hostObjects } from '../../../hack/dev/sample-hosts.ts';
import { tearDownClusterApiFile } from '../../support/cluster-api-teardown.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { startOperatorProcess, type OperatorProcess } from '../../support/operator-process.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { RawIronic } from '../../support/raw-ironic.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { serverRecords } from '../baremetalhost/hosts.ts';

// Metal3's pivot: `clusterctl move` takes a running cluster, its Machines and its BareMetalHost
// from one management cluster (the stack's API server) to another (the stack's workload API
// server, which is also the moved cluster's own: a self-hosted pivot). Core Cluster API's
// manager, the provider and the operator run on each side; Ironic is shared, as an external one.
// The host must arrive paused with its status, and be adopted where it stands on the other side.
const env = readStackEnv();
const source = new Kubectl(env);
const targetEnv = { ...env, kubeconfig: env.workload.kubeconfig };
const target = new Kubectl(targetEnv);
const ironic = new RawIronic(env.ironicUrl);
const minutes = (n: number) => n * 60_000;
jest.setTimeout(minutes(10));

const CLUSTER = 'pivot';
// Server 97 of the test stack is this file's own; its Node (named after the host) is in the shared workload cluster.
const HOST = { name: 'pivot-cp', system: 97 };
const MACHINE = `${CLUSTER}-control-plane-0`;
const PAUSED = 'baremetalhost.metal3.io/paused';
const STATUS = 'baremetalhost.metal3.io/status';
const BLOCK_MOVE = 'clusterctl.cluster.x-k8s.io/block-move';
const MOVE_BLOCKED = `Move blocked by ${BLOCK_MOVE} annotation`;

let namespace = '';
const sourceSide: { capi?: ClusterApiManager; operator?: OperatorProcess; provider?: ProviderProcess } = {};
const targetSide: { capi?: ClusterApiManager; operator?: OperatorProcess; provider?: ProviderProcess } = {};
/** What the source saw before the move, compared with what the target does after it. */
const before: { nodeId?: string; records?: SystemRecords } = {};

interface Host {
  metadata: { uid: string; annotations?: Record<string, string> };
  spec: { consumerRef?: { name: string } };
  status?: { operationalStatus?: string; provisioning?: { state?: string; ID?: string; image?: { url?: string } } };
}
interface Machine { status?: { phase?: string; nodeRef?: { name: string } } }
interface Condition { type: string; status: string }

const getHost = async (kubectl: Kubectl) => {
  const result = await kubectl.run(['get', 'bmh', HOST.name, '-n', namespace, '-o', 'json']);
  return result.code === 0 ? (JSON.parse(result.stdout) as Host) : undefined;
};
const waitForHost = (kubectl: Kubectl, what: string, accept: (host: Host) => boolean, timeoutMs = minutes(2)) => {
  let last: Host | undefined;
  return waitFor(async () => {
    last = await getHost(kubectl);
    return last && accept(last) ? last : undefined;
  }, { timeoutMs, intervalMs: 1_000, what: `${HOST.name} ${what}` }).catch((error: Error) => {
    throw new Error(`${error.message}; last: ${JSON.stringify({ annotations: last?.metadata.annotations, status: last?.status })}`);
  });
};
const records = () => serverRecords(env, env.systems[HOST.system]!.uuid);
const names = async (kubectl: Kubectl, kinds: string) =>
  (await kubectl.ok(['get', kinds, '-n', namespace, '-o', 'name'])).split('\n').filter(Boolean);

/**
 * What clusterctl moves is what its CRDs are labelled for, as Metal3's pivot docs have users do:
 * Cluster API's and the provider's kinds, BareMetalHosts with everything they own (the BMC
 * Secret, HardwareData) and HardwareData itself.
 */
async function labelCrdsForMove(kubectl: Kubectl): Promise<void> {
  const crds = (await kubectl.ok(['get', 'crd', '-o', 'name'])).split('\n').filter((name) => name.endsWith('.cluster.x-k8s.io'));
  await kubectl.ok(['label', '--overwrite', ...crds, 'clusterctl.cluster.x-k8s.io=']);
  await kubectl.ok(['label', '--overwrite', 'crd/baremetalhosts.metal3.io', 'crd/hardwaredata.metal3.io',
    'clusterctl.cluster.x-k8s.io=', 'clusterctl.cluster.x-k8s.io/move=']);
  await kubectl.ok(['label', '--overwrite', 'crd/baremetalhosts.metal3.io', 'clusterctl.cluster.x-k8s.io/move-hierarchy=']);
}

const startSource = (label: string) => startProviderProcess({ env, namespace, label: `${label}-${namespace}` });

beforeAll(async () => {
  await installProviderCrds(source, env);
  await installProviderCrds(target, targetEnv);
  await labelCrdsForMove(source);
  await target.run(['delete', 'node', HOST.name, '--ignore-not-found']);
  namespace = await createUniqueNamespace(source, 'e2e-move');
  sourceSide.capi = await startClusterApiManager({ env, stateDir: env.stateDir, namespace, label: `src-${namespace}` });
  sourceSide.operator = startOperatorProcess({ env, namespace, label: `src-${namespace}` });
  sourceSide.provider = startSource('src');
  await source.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    // Released at the end with no cleaning: this file is about the move, not the wipe.
    ...hostObjects({ env, namespace, hosts: [{ name: HOST.name, system: env.systems[HOST.system]!, labels: { role: 'control-plane' },
      spec: { online: false, automatedCleaningMode: 'disabled' } }] }),
    ...sampleClusterObjects({ env, namespace, name: CLUSTER, watchLabels: sourceSide.capi.watchLabels,
      controlPlaneHostSelector: { role: 'control-plane' }, workerHostSelector: { role: 'worker' }, workerReplicas: 0 }),
  ] }));
  // The pre-rendered bootstrap data has no owner (a KubeadmConfig would own it): moved by its label, as users do.
  await source.ok(['label', 'secret', '-n', namespace, `${CLUSTER}-control-plane-bootstrap`, `${CLUSTER}-workers-bootstrap`,
    'clusterctl.cluster.x-k8s.io/move=']);
}, minutes(5));

afterAll(async () => {
  for (const controller of [sourceSide.provider, sourceSide.operator, sourceSide.capi]) await controller?.stop();
  if (namespace) await deleteProviderNamespace(source, namespace);
  await tearDownClusterApiFile({ env, kubectl: target, workload: target, namespace, clusterApiRan: targetSide.capi !== undefined,
    processes: [targetSide.provider, targetSide.operator, targetSide.capi], nodeNames: [HOST.name] });
  source.dispose();
}, minutes(10));

describe('clusterctl move takes a running Metal3 cluster to another management cluster', () => {
  it('the cluster runs on the source: its host provisioned, its Machine linked to the Node, and the held host carries block-move', async () => {
    await waitFor(async () => {
      const cluster = await source.json<{ status?: { conditions?: Condition[] } }>(['get', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace]);
      return cluster.status?.conditions?.some((c) => c.type === 'ControlPlaneInitialized' && c.status === 'True') ? true : undefined;
    }, { timeoutMs: minutes(6), intervalMs: 2_000, what: 'ControlPlaneInitialized' });
    const machine = await source.json<Machine>(['get', 'machines.cluster.x-k8s.io', MACHINE, '-n', namespace]);
    expect(machine.status?.nodeRef?.name).toBe(HOST.name);
    const host = await waitForHost(source, 'provisioned', (h) => h.status?.provisioning?.state === 'provisioned');
    expect(host.spec.consumerRef?.name).toBe(MACHINE);
    expect(host.metadata.annotations?.[BLOCK_MOVE]).toBe('');
    expect(host.metadata.annotations?.[PAUSED]).toBeUndefined();
    before.nodeId = host.status?.provisioning?.ID;
    before.records = await records();
    expect(before.records.imageWrites).toHaveLength(1);
    expect((await ironic.node(before.nodeId!)).provision_state).toBe('active');
  });

  it('clusterctl waits on block-move until the provider pauses the host; the host moves with its status and leaves the source', async () => {
    // With the provider stopped, nothing lifts block-move: clusterctl must say it waits.
    await sourceSide.provider?.stop();
    const move = await startClusterctl(['move', '--kubeconfig', env.kubeconfig, '--to-kubeconfig', env.workload.kubeconfig, '-n', namespace]);
    await waitFor(async () => (move.output().includes(MOVE_BLOCKED) ? true : undefined),
      { timeoutMs: minutes(1), intervalMs: 500, what: `clusterctl to report "${MOVE_BLOCKED}"` }).catch((error: Error) => {
      throw new Error(`${error.message}; clusterctl so far:\n${move.output()}`);
    });
    const cluster = await source.json<{ spec: { paused?: boolean } }>(['get', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace]);
    expect(cluster.spec.paused).toBe(true);
    expect((await getHost(source))?.metadata.annotations?.[PAUSED]).toBeUndefined();

    sourceSide.provider = startSource('src-again');
    const moved = await move.done;
    expect({ code: moved.code, output: moved.output }).toMatchObject({ code: 0 });

    // The host arrived as the provider left it: paused by CAPM3, its status saved, nothing blocking.
    const arrived = await getHost(target);
    expect(arrived?.metadata.annotations?.[PAUSED]).toBe('metal3.io/capm3');
    expect(arrived?.metadata.annotations?.[BLOCK_MOVE]).toBeUndefined();
    const saved = JSON.parse(arrived?.metadata.annotations?.[STATUS] ?? '{}') as Host['status'];
    expect(saved?.provisioning).toMatchObject({ state: 'provisioned', ID: before.nodeId });
    for (const kinds of ['bmh,hardwaredata,m3m,m3c', 'clusters.cluster.x-k8s.io,machines.cluster.x-k8s.io']) {
      expect(await names(source, kinds)).toEqual([]);
      expect((await names(target, kinds)).length).toBeGreaterThan(0);
    }
    // Nothing on the source touched the server or its Ironic node when its objects went.
    const node = await ironic.node(before.nodeId!);
    expect({ provision: node.provision_state, power: node.power_state }).toEqual({ provision: 'active', power: 'power on' });
  });

  it('on the target the host is adopted where it stands: unpaused, provisioned on the same Ironic node, nothing written to the server again', async () => {
    targetSide.capi = await startClusterApiManager({ env: targetEnv, stateDir: env.stateDir, namespace, label: `dst-${namespace}` });
    targetSide.operator = startOperatorProcess({ env, namespace, label: `dst-${namespace}`, extraEnv: { KUBECONFIG: env.workload.kubeconfig } });
    targetSide.provider = startProviderProcess({ env, namespace, label: `dst-${namespace}`, extraEnv: { KUBECONFIG: env.workload.kubeconfig } });

    // The operator restores the status and then drops its saved copy, two writes as in BMO: wait for both.
    const adopted = await waitForHost(target, 'unpaused, provisioned on the target and its saved status dropped', (h) =>
      !(PAUSED in (h.metadata.annotations ?? {})) && !(STATUS in (h.metadata.annotations ?? {}))
      && h.status?.provisioning?.state === 'provisioned' && h.status.operationalStatus === 'OK',
    minutes(4)).catch(async (error: Error) => {
      const m3m = await target.run(['get', 'm3m', MACHINE, '-n', namespace, '-o', 'jsonpath={.status.conditions}']);
      const cluster = await target.run(['get', 'clusters.cluster.x-k8s.io', CLUSTER, '-n', namespace, '-o', 'jsonpath={.spec.paused} {.status.initialization}']);
      throw new Error(`${error.message}; Metal3Machine conditions: ${m3m.stdout}; Cluster paused and initialization: ${cluster.stdout}`);
    });
    expect(adopted.status?.provisioning?.ID).toBe(before.nodeId);
    // Held and unpaused again: the next move of this cluster waits for its pause too.
    await waitForHost(target, 'to carry block-move again', (h) => h.metadata.annotations?.[BLOCK_MOVE] === '');
    const machine = await waitFor(async () => {
      const found = await target.json<Machine>(['get', 'machines.cluster.x-k8s.io', MACHINE, '-n', namespace]);
      return found.status?.phase === 'Running' ? found : undefined;
    }, { timeoutMs: minutes(3), intervalMs: 2_000, what: `${MACHINE} Running on the target` });
    expect(machine.status?.nodeRef?.name).toBe(HOST.name);

    const after = await records();
    expect({ imageWrites: after.imageWrites.length, inspections: after.inspections.length, diskWipes: after.diskWipes.length }).toEqual({
      imageWrites: before.records!.imageWrites.length, inspections: before.records!.inspections.length, diskWipes: before.records!.diskWipes.length,
    });
    expect((await ironic.node(before.nodeId!)).provision_state).toBe('active');
  });
});
