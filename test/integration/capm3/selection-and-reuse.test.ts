import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { installKubeadmCrds } from '../../../hack/capi/index.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { ClusterApiObjects, fakeHost, machineDeployment, setHostState } from './objects.ts';
import type { OwnerReference } from './objects.ts';

jest.setTimeout(600_000);

interface Condition { type: string; status: string; reason: string; message: string; observedGeneration?: number }
interface M3M {
  metadata: { generation: number; annotations?: Record<string, string>; finalizers?: string[] };
  spec: { providerID?: string; failureDomain?: string };
  status?: { conditions?: Condition[]; initialization?: { provisioned?: boolean } };
}
interface Host {
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { consumerRef?: { apiVersion?: string; kind: string; name: string; namespace?: string }; image?: Record<string, string>;
    automatedCleaningMode?: string };
}

const IMAGE = { url: 'http://127.0.0.1:1/image.qcow2', checksum: 'http://127.0.0.1:1/image.qcow2.sha256sum', checksumType: 'sha256', diskFormat: 'qcow2' };
const FD_LABEL = 'infrastructure.cluster.x-k8s.io/failure-domain';
const REUSE_LABEL = 'infrastructure.cluster.x-k8s.io/node-reuse';
const PAUSED = 'baremetalhost.metal3.io/paused';
const HOST_ANNOTATION = 'metal3.io/BareMetalHost';
const CLONED_FROM = { 'cluster.x-k8s.io/cloned-from-name': 'workers', 'cluster.x-k8s.io/cloned-from-groupkind': 'Metal3MachineTemplate.infrastructure.cluster.x-k8s.io' };

/** One namespace with its own provider process, and the waits every test here uses. */
class Scene {
  readonly kubectl: Kubectl;
  namespace = '';
  objects!: ClusterApiObjects;
  provider: ProviderProcess | undefined;

  constructor(kubectl: Kubectl) {
    this.kubectl = kubectl;
  }

  async start(prefix: string, extraEnv?: Record<string, string>): Promise<void> {
    this.namespace = await createUniqueNamespace(this.kubectl, prefix);
    this.objects = new ClusterApiObjects(this.kubectl, this.namespace);
    this.provider = startProviderProcess({ env: readStackEnv(), namespace: this.namespace, label: this.namespace, ...(extraEnv ? { extraEnv } : {}) });
  }

  async stop(): Promise<void> {
    await this.provider?.stop();
    if (!this.namespace) return;
    await deleteProviderNamespace(this.kubectl, this.namespace);
  }

  machine(name: string, what: string, accept: (m3m: M3M) => boolean): Promise<M3M> {
    let last: M3M | undefined;
    return waitFor(async () => {
      last = await this.objects.find<M3M>('m3m', name);
      return last && accept(last) ? last : undefined;
    }, { timeoutMs: 60_000, intervalMs: 300, what: `${name} ${what}` }).catch((error: Error) => {
      throw new Error(`${error.message}; last status: ${JSON.stringify(last?.status ?? null)}`);
    });
  }

  reason(name: string, type: string, reason: string): Promise<M3M> {
    return this.machine(name, `${type}=${reason}`, (m3m) => condition(m3m, type)?.reason === reason);
  }

  host(name: string, what: string, accept: (host: Host) => boolean): Promise<Host> {
    let last: Host | undefined;
    return waitFor(async () => {
      last = await this.objects.find<Host>('bmh', name);
      return last && accept(last) ? last : undefined;
    }, { timeoutMs: 60_000, intervalMs: 300, what: `${name} ${what}` }).catch((error: Error) => {
      throw new Error(`${error.message}; last: ${JSON.stringify(last ? { labels: last.metadata.labels, spec: last.spec } : null)}`);
    });
  }

  /** The host the machine claimed: consumerRef on the host and the annotation on the machine agree. */
  async claimedBy(machine: string): Promise<Host> {
    const m3m = await this.machine(machine, 'to claim a host', (m) =>
      condition(m, 'AssociateBareMetalHost')?.status === 'True' && Boolean(m.metadata.annotations?.[HOST_ANNOTATION]));
    const hostName = (m3m.metadata.annotations?.[HOST_ANNOTATION] ?? '').split('/')[1] ?? '';
    const host = await this.objects.get<Host>('bmh', hostName);
    expect(host.spec.consumerRef).toMatchObject({ kind: 'Metal3Machine', name: machine, namespace: this.namespace });
    return host;
  }

  hosts(): Promise<Host[]> {
    return this.kubectl.json<{ items: Host[] }>(['get', 'bmh', '-n', this.namespace]).then((list) => list.items);
  }
}

function condition(m3m: M3M | undefined, type: string): Condition | undefined {
  return m3m?.status?.conditions?.find((c) => c.type === type);
}

describe('host selection and release rules of the Metal3Machine controller (real API server, Cluster API objects created directly)', () => {
  const kubectl = new Kubectl(readStackEnv());
  const scene = new Scene(kubectl);
  const watchFiltered = new Scene(kubectl);

  beforeAll(async () => {
    await installProviderCrds(kubectl, readStackEnv());
    await scene.start('capm3-select');
    await scene.objects.cluster('c1');
    await scene.objects.bootstrapSecret('c1-bootstrap', '#cloud-config\n');
  });

  afterAll(async () => {
    await scene.stop();
    await watchFiltered.stop();
    kubectl.dispose();
  });

  it('prefers a free host in the Machine failure domain (copied onto the Metal3Machine) and falls back to any free host', async () => {
    const { objects } = scene;
    // Ten free hosts, two in fd-a: two fd-a machines landing on exactly those by chance is a 1 in 45 event.
    for (let i = 1; i <= 8; i++) await fakeHost(objects, `fd-free-${i}`, { labels: { pool: 'fd' } });
    for (const name of ['fd-a-1', 'fd-a-2']) await fakeHost(objects, name, { labels: { pool: 'fd', [FD_LABEL]: 'fd-a' } });
    const spec = { image: IMAGE, hostSelector: { matchLabels: { pool: 'fd' } } };

    await objects.machine('in-a-1', { cluster: 'c1', dataSecretName: 'c1-bootstrap', failureDomain: 'fd-a', m3mSpec: spec });
    const first = await scene.claimedBy('in-a-1');
    expect(first.metadata.labels?.[FD_LABEL]).toBe('fd-a');
    expect((await objects.get<M3M>('m3m', 'in-a-1')).spec.failureDomain).toBe('fd-a');

    await objects.machine('in-a-2', { cluster: 'c1', dataSecretName: 'c1-bootstrap', failureDomain: 'fd-a', m3mSpec: spec });
    const second = await scene.claimedBy('in-a-2');
    expect(second.metadata.labels?.[FD_LABEL]).toBe('fd-a');
    expect(second.metadata.name).not.toBe(first.metadata.name);

    // No free host is left in fd-a and none exists in fd-b: any free host will do.
    await objects.machine('in-b', { cluster: 'c1', dataSecretName: 'c1-bootstrap', failureDomain: 'fd-b', m3mSpec: spec });
    const fallback = await scene.claimedBy('in-b');
    expect(fallback.metadata.name).toMatch(/^fd-free-/);
    expect((await objects.get<M3M>('m3m', 'in-b')).spec.failureDomain).toBe('fd-b');
  });

  it('keeps a released host for the next Machine of the same MachineDeployment, and never gives it to another one', async () => {
    const { objects, namespace } = scene;
    await objects.apply([{ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3MachineTemplate',
      metadata: { name: 'workers', namespace },
      spec: { nodeReuse: true, template: { spec: { image: IMAGE, hostSelector: { matchLabels: { pool: 'reuse' } } } } } }]);
    const poolA = await machineDeployment(objects, 'pool-a', { cluster: 'c1', template: 'workers', dataSecretName: 'c1-bootstrap' });
    const poolB = await machineDeployment(objects, 'pool-b', { cluster: 'c1', template: 'workers', dataSecretName: 'c1-bootstrap' });
    // Six free hosts: a random pick would land on the kept one in 3 rounds with probability 1/216.
    for (let i = 1; i <= 6; i++) await fakeHost(objects, `reuse-${i}`, { labels: { pool: 'reuse' } });
    const workerOf = (name: string, owner: OwnerReference, selector: Record<string, string> = { pool: 'reuse' }) =>
      objects.machine(name, { cluster: 'c1', dataSecretName: 'c1-bootstrap', machineOwners: [owner], annotations: CLONED_FROM,
        m3mSpec: { image: IMAGE, hostSelector: { matchLabels: selector } } });

    await workerOf('a-0', poolA);
    let kept = (await scene.claimedBy('a-0')).metadata.name;
    await scene.reason('a-0', 'AssociateBareMetalHost', 'AssociateBareMetalHostSuccess');
    for (let round = 1; round <= 3; round++) {
      const previous = `a-${round - 1}`;
      await setHostState(objects, kept, 'provisioned');
      const provisioned = await scene.machine(previous, 'provisioned', (m3m) => m3m.status?.initialization?.provisioned === true);
      // The association's reason outlives the pass that claimed the host, as CAPM3's does.
      expect(condition(provisioned, 'AssociateBareMetalHost')?.reason)
        .toBe(round === 1 ? 'AssociateBareMetalHostSuccess' : 'AssociateBareMetalHostViaNodeReuseSuccess');

      // Cluster API deletes the Metal3Machine; BMO deprovisions the host.
      await kubectl.ok(['delete', 'm3m', previous, '-n', namespace, '--wait=false']);
      await scene.host(kept, 'image cleared', (host) => host.spec.image === undefined);
      await setHostState(objects, kept, 'deprovisioning');
      await scene.reason(previous, 'Ready', 'Deleting');
      await setHostState(objects, kept, 'available');
      const booked = await scene.host(kept, 'booked for md-pool-a', (host) => host.metadata.labels?.[REUSE_LABEL] === 'md-pool-a');
      expect(booked.spec.consumerRef).toEqual({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'c1', namespace });
      expect(booked.metadata.labels?.['cluster.x-k8s.io/cluster-name']).toBeUndefined();
      expect(booked.spec.image).toBeUndefined();
      await waitFor(async () => ((await objects.find('m3m', previous)) ? undefined : true), { timeoutMs: 30_000, what: `${previous} to be gone` });

      if (round === 1) {
        // A Machine of another MachineDeployment that selects only the kept host must not get it.
        await objects.patch('bmh', kept, { metadata: { labels: { 'only-for-test': 'kept' } } });
        await workerOf('b-0', poolB, { 'only-for-test': 'kept' });
        const waiting = await scene.reason('b-0', 'AssociateBareMetalHost', 'AssociateBareMetalHostFailed');
        expect(condition(waiting, 'AssociateBareMetalHost')?.message).toContain('1 kept for reuse by another owner');
      }

      const next = `a-${round}`;
      await workerOf(next, poolA);
      const taken = await scene.claimedBy(next);
      expect(taken.metadata.name).toBe(kept);
      expect(taken.metadata.labels?.[REUSE_LABEL]).toBeUndefined();
      expect(taken.metadata.labels?.['cluster.x-k8s.io/cluster-name']).toBe('c1');
      expect(taken.spec.image).toMatchObject({ url: IMAGE.url, format: 'qcow2' });
      // CAPM3's reason for a host taken through node reuse.
      await scene.reason(next, 'AssociateBareMetalHost', 'AssociateBareMetalHostViaNodeReuseSuccess');
      kept = taken.metadata.name;
    }

    // The other deployment's machine never held the kept host, and no other host was touched by pool-a.
    expect(condition(await objects.get<M3M>('m3m', 'b-0'), 'AssociateBareMetalHost')?.status).toBe('False');
    const consumers = (await scene.hosts()).filter((host) => host.metadata.labels?.pool === 'reuse' && host.spec.consumerRef)
      .map((host) => `${host.metadata.name}:${host.spec.consumerRef?.name}`);
    expect(consumers).toEqual([`${kept}:a-3`]);
  });

  it('keeps a control plane Machine\'s host when the template its control plane names now has nodeReuse (CAPM3 1.14), not the one it was cloned from', async () => {
    const { objects, namespace } = scene;
    const env = readStackEnv();
    await installKubeadmCrds({ kubectl: env.kubectl, kubeconfig: env.kubeconfig });
    const templateSpec = { image: IMAGE, hostSelector: { matchLabels: { pool: 'cp-reuse' } } };
    await objects.apply([
      { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3MachineTemplate', metadata: { name: 'cp-old', namespace }, spec: { template: { spec: templateSpec } } },
      { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3MachineTemplate', metadata: { name: 'cp-new', namespace }, spec: { nodeReuse: true, template: { spec: templateSpec } } },
      // A rollout in progress: the control plane makes Machines from cp-new; the one going away came from cp-old.
      { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlane', metadata: { name: 'dev-cp', namespace },
        spec: { version: 'v1.35.0', machineTemplate: { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3MachineTemplate', name: 'cp-new' } } } } },
    ]);
    const kcp = await objects.get<{ metadata: { uid: string } }>('kubeadmcontrolplane', 'dev-cp');
    await fakeHost(objects, 'cp-host', { labels: { pool: 'cp-reuse' } });
    await objects.machine('cp-0', { cluster: 'c1', dataSecretName: 'c1-bootstrap', m3mSpec: templateSpec,
      machineLabels: { 'cluster.x-k8s.io/control-plane': '' },
      machineOwners: [{ apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlane', name: 'dev-cp', uid: kcp.metadata.uid, controller: true }],
      annotations: { 'cluster.x-k8s.io/cloned-from-name': 'cp-old', 'cluster.x-k8s.io/cloned-from-groupkind': 'Metal3MachineTemplate.infrastructure.cluster.x-k8s.io' } });
    await scene.claimedBy('cp-0');
    await setHostState(objects, 'cp-host', 'provisioned');
    await scene.machine('cp-0', 'provisioned', (m3m) => m3m.status?.initialization?.provisioned === true);

    await kubectl.ok(['delete', 'm3m', 'cp-0', '-n', namespace, '--wait=false']);
    await scene.host('cp-host', 'image cleared', (host) => host.spec.image === undefined);
    await setHostState(objects, 'cp-host', 'deprovisioning');
    await setHostState(objects, 'cp-host', 'available');
    const booked = await scene.host('cp-host', 'booked for cp-dev-cp', (host) => host.metadata.labels?.[REUSE_LABEL] === 'cp-dev-cp');
    expect(booked.spec.consumerRef).toEqual({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'c1', namespace });
  });

  it('a cluster.x-k8s.io/paused annotation pauses only that Metal3Machine and never pauses its host', async () => {
    const { objects } = scene;
    for (const name of ['pause-1', 'pause-2']) await fakeHost(objects, name, { labels: { pool: 'pause' } });
    const spec = { image: IMAGE, hostSelector: { matchLabels: { pool: 'pause' } } };
    await objects.machine('paused', { cluster: 'c1', dataSecretName: 'c1-bootstrap', m3mSpec: spec });
    await objects.machine('running', { cluster: 'c1', dataSecretName: 'c1-bootstrap', m3mSpec: spec });
    const pausedHost = (await scene.claimedBy('paused')).metadata.name;
    const runningHost = (await scene.claimedBy('running')).metadata.name;

    await objects.patch('m3m', 'paused', { metadata: { annotations: { 'cluster.x-k8s.io/paused': '' } } });
    const paused = await scene.reason('paused', 'Paused', 'Paused');
    expect(condition(paused, 'Paused')?.status).toBe('True');
    expect(condition(paused, 'Ready')).toMatchObject({ status: 'False', reason: 'Paused' });
    expect((await objects.get<Host>('bmh', pausedHost)).metadata.annotations?.[PAUSED]).toBeUndefined();

    // Both hosts finish provisioning, and the paused machine gets a spec change it would pass on.
    await setHostState(objects, pausedHost, 'provisioned');
    await setHostState(objects, runningHost, 'provisioned');
    await objects.patch('m3m', 'paused', { spec: { automatedCleaningMode: 'disabled' } });
    const generation = (await objects.get<M3M>('m3m', 'paused')).metadata.generation;
    await scene.machine('running', 'provisioned', (m3m) => m3m.status?.initialization?.provisioned === true);
    const stillPaused = await scene.machine('paused', 'to see the new generation while paused',
      (m3m) => condition(m3m, 'Paused')?.observedGeneration === generation);
    expect(condition(stillPaused, 'Paused')?.status).toBe('True');
    expect(stillPaused.status?.initialization?.provisioned).toBeUndefined();
    expect(stillPaused.spec.providerID).toBeUndefined();
    const untouched = await objects.get<Host>('bmh', pausedHost);
    expect(untouched.spec.automatedCleaningMode).not.toBe('disabled');
    expect(untouched.metadata.annotations?.[PAUSED]).toBeUndefined();
    expect(condition(await objects.get<M3M>('m3m', 'running'), 'Paused')?.status).toBe('False');

    await objects.patch('m3m', 'paused', { metadata: { annotations: { 'cluster.x-k8s.io/paused': null } } });
    const resumed = await scene.machine('paused', 'provisioned after resuming', (m3m) => m3m.status?.initialization?.provisioned === true);
    expect(condition(resumed, 'Paused')).toMatchObject({ status: 'False', reason: 'NotPaused' });
    expect(resumed.spec.providerID).toBe(`metal3://${scene.namespace}/${pausedHost}/paused`);
    await scene.host(pausedHost, 'cleaning mode passed on', (host) => host.spec.automatedCleaningMode === 'disabled');
  });

  it('with --watch-filter reconciles only Metal3Machines carrying the filter label', async () => {
    await watchFiltered.start('capm3-filter', { CAPM3_WATCH_FILTER: 'mine' });
    const { objects } = watchFiltered;
    await objects.cluster('c2');
    await objects.bootstrapSecret('c2-bootstrap', '#cloud-config\n');
    for (const name of ['filter-1', 'filter-2']) await fakeHost(objects, name, { labels: { pool: 'filter' } });
    const spec = { image: IMAGE, hostSelector: { matchLabels: { pool: 'filter' } } };

    await objects.machine('theirs', { cluster: 'c2', dataSecretName: 'c2-bootstrap', m3mSpec: spec });
    // Wake it through every watch that maps to it: its Machine, its host candidates, its Cluster.
    await objects.patch('machine', 'theirs', { metadata: { annotations: { touched: '1' } } });
    await objects.patch('cluster', 'c2', { metadata: { annotations: { touched: '1' } } });
    await objects.machine('mine', { cluster: 'c2', dataSecretName: 'c2-bootstrap', m3mSpec: spec, m3mLabels: { 'cluster.x-k8s.io/watch-filter': 'mine' } });
    await watchFiltered.claimedBy('mine');
    // A spec change seen by a later reconcile of ours proves the provider ran well after theirs appeared.
    await objects.patch('m3m', 'mine', { spec: { automatedCleaningMode: 'disabled' } });
    const generation = (await objects.get<M3M>('m3m', 'mine')).metadata.generation;
    await watchFiltered.machine('mine', 'to see the new generation', (m3m) => condition(m3m, 'Ready')?.observedGeneration === generation);

    const theirs = await objects.get<M3M>('m3m', 'theirs');
    expect(theirs.status).toBeUndefined();
    expect(theirs.metadata.finalizers ?? []).toEqual([]);
    expect(theirs.metadata.annotations?.[HOST_ANNOTATION]).toBeUndefined();
    const consumers = (await watchFiltered.hosts()).map((host) => host.spec.consumerRef?.name).filter(Boolean);
    expect(consumers).toEqual(['mine']);
  });
});
