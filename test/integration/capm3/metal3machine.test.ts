import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { workloadKubeconfigSecret } from '../../../hack/capi/index.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { freePort } from '../../../hack/stack/ports.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { ClusterApiObjects, fakeHost, setHostState } from './objects.ts';

jest.setTimeout(300_000);

interface Condition { type: string; status: string; reason: string; message: string }
interface M3M {
  metadata: { annotations?: Record<string, string>; finalizers?: string[] };
  spec: { providerID?: string };
  status?: { conditions?: Condition[]; addresses?: { type: string; address: string }[]; initialization?: { provisioned?: boolean };
    deprecated?: { v1beta1?: { conditions?: { type: string; status: string; reason?: string; severity?: string }[] } } };
}
interface Host {
  metadata: { uid: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { consumerRef?: { kind: string; name: string }; image?: Record<string, string>; userData?: { name: string };
    online: boolean; automatedCleaningMode?: string };
}

const BLOCK_MOVE = 'clusterctl.cluster.x-k8s.io/block-move';
const IMAGE = { url: 'http://127.0.0.1:1/image.qcow2', checksum: 'http://127.0.0.1:1/image.qcow2.sha256sum', checksumType: 'sha256', diskFormat: 'qcow2' };
const IMAGE_ON_HOST = { url: IMAGE.url, checksum: IMAGE.checksum, checksumType: 'sha256', format: 'qcow2' };
// Unique per run: the workload API server is shared with other test files, whose Nodes must not collide with ours.
const NODE = `m3m-it-${randomBytes(3).toString('hex')}`;
const HARDWARE = { hostname: NODE, nics: [{ name: 'eth0', mac: '00:5a:91:00:00:01', ip: '127.0.0.42' }] };

describe('Metal3Machine controller on the real API server (Cluster API objects created directly)', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  const workload = new Kubectl({ kubectl: env.kubectl, kubeconfig: env.workload.kubeconfig });
  let namespace = '';
  let objects: ClusterApiObjects;
  let provider: ProviderProcess;
  let metricsPort = 0;

  const condition = (m3m: M3M | undefined, type: string) => m3m?.status?.conditions?.find((c) => c.type === type);
  const legacyConditions = (m3m: M3M | undefined) => m3m?.status?.deprecated?.v1beta1?.conditions;
  const waitForMachine = (name: string, what: string, accept: (m3m: M3M) => boolean, timeoutMs = 60_000) => {
    let last: M3M | undefined;
    return waitFor(async () => {
      last = await objects.find<M3M>('m3m', name);
      return last && accept(last) ? last : undefined;
    }, { timeoutMs, intervalMs: 300, what: `${name} ${what}` }).catch((error: Error) => {
      throw new Error(`${error.message}; last status: ${JSON.stringify(last?.status ?? null)}`);
    });
  };
  const waitForReason = (name: string, type: string, reason: string) =>
    waitForMachine(name, `${type}=${reason}`, (m3m) => condition(m3m, type)?.reason === reason);
  const waitForHost = (name: string, what: string, accept: (host: Host) => boolean) =>
    waitFor(async () => {
      const host = await objects.find<Host>('bmh', name);
      return host && accept(host) ? host : undefined;
    }, { timeoutMs: 60_000, intervalMs: 300, what: `${name} ${what}` });

  beforeAll(async () => {
    await installProviderCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'capm3-m3m');
    objects = new ClusterApiObjects(kubectl, namespace);
    metricsPort = await freePort();
    provider = startProviderProcess({ env, namespace, label: `m3m-${namespace}`, extraEnv: { METRICS_BIND_ADDRESS: `127.0.0.1:${metricsPort}` } });
  });

  afterAll(async () => {
    await provider?.stop();
    await workload.run(['delete', 'node', NODE, '--ignore-not-found']);
    if (namespace) await deleteProviderNamespace(kubectl, namespace);
    kubectl.dispose();
    workload.dispose();
  });

  it('says what it waits for: owner Machine, bootstrap data, its Secret, cluster infrastructure', async () => {
    await objects.apply([{ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3Machine',
      metadata: { name: 'orphan', namespace }, spec: { image: IMAGE } }]);
    await waitForReason('orphan', 'AssociateBareMetalHost', 'WaitingForMetal3MachineOwnerRef');

    // CAPM3's reason when the Machine's Cluster is not there; the message says which.
    await objects.machine('no-cluster', { cluster: 'not-a-cluster', m3mSpec: { image: IMAGE } });
    const noCluster = await waitForReason('no-cluster', 'AssociateBareMetalHost', 'WaitingForClusterInfrastructureReady');
    expect(condition(noCluster, 'AssociateBareMetalHost')?.message).toBe(`Cluster ${namespace}/not-a-cluster does not exist`);

    await objects.cluster('waiting', { infrastructureProvisioned: false });
    await objects.machine('no-data', { cluster: 'waiting', m3mSpec: { image: IMAGE } });
    const infra = await waitForReason('no-data', 'AssociateBareMetalHost', 'WaitingForClusterInfrastructureReady');
    expect(condition(infra, 'Ready')?.status).toBe('False');
    await objects.patch('cluster', 'waiting', { status: { initialization: { infrastructureProvisioned: true } } }, { status: true });
    const noData = await waitForReason('no-data', 'AssociateBareMetalHost', 'WaitingForBootstrapData');
    expect(condition(noData, 'AssociateBareMetalHost')?.message).toContain('dataSecretName');
    // CAPM3's deprecated v1beta1 conditions, in the same write: what v1beta1 readers see as status.conditions.
    expect(legacyConditions(noData)).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'Ready', status: 'False', reason: 'WaitingForBootstrapReady', severity: 'Info' }),
      expect.objectContaining({ type: 'AssociateBMH', status: 'False', reason: 'WaitingForBootstrapReady', severity: 'Info' }),
    ]));

    await objects.machine('missing-secret', { cluster: 'waiting', dataSecretName: 'not-there', m3mSpec: { image: IMAGE } });
    const missing = await waitForReason('missing-secret', 'AssociateBareMetalHost', 'WaitingForBootstrapData');
    expect(condition(missing, 'AssociateBareMetalHost')?.message).toContain(`${namespace}/not-there does not exist`);

    await objects.machine('bad-selector', { cluster: 'waiting', dataSecretName: 'not-there', m3mSpec: { image: { url: IMAGE.url } } });
    const invalid = await waitForReason('bad-selector', 'AssociateBareMetalHost', 'InvalidConfiguration');
    expect(condition(invalid, 'AssociateBareMetalHost')?.message).toContain('spec.image.checksum: Required value');
  });

  it('claims the matching free host, provisions it, sets providerID and addresses, and links the Node', async () => {
    await objects.cluster('c1');
    await objects.bootstrapSecret('c1-bootstrap', `#cloud-config\nhostname: ${NODE}\n`);
    await objects.apply([workloadKubeconfigSecret(env, 'c1', namespace)]);
    // Only big-1 fits: small is too small, the others are taken, paused, unhealthy or broken.
    await fakeHost(objects, 'big-1', { labels: { role: 'worker', 'hardware.metal3.io/cpu-count': '16' } });
    await fakeHost(objects, 'small', { labels: { role: 'worker', 'hardware.metal3.io/cpu-count': '2' } });
    await fakeHost(objects, 'big-paused', { labels: { role: 'worker', 'hardware.metal3.io/cpu-count': '32' },
      annotations: { 'baremetalhost.metal3.io/paused': 'user' } });
    await fakeHost(objects, 'big-unhealthy', { labels: { role: 'worker', 'hardware.metal3.io/cpu-count': '32' },
      annotations: { 'capm3.metal3.io/unhealthy': '' } });
    await fakeHost(objects, 'big-error', { labels: { role: 'worker', 'hardware.metal3.io/cpu-count': '32' }, errorMessage: 'BMC unreachable' });
    await fakeHost(objects, 'big-inspecting', { state: 'inspecting', labels: { role: 'worker', 'hardware.metal3.io/cpu-count': '32' } });
    await objects.machine('m1', { cluster: 'c1', dataSecretName: 'c1-bootstrap', m3mSpec: {
      image: IMAGE, automatedCleaningMode: 'disabled',
      hostSelector: { matchLabels: { role: 'worker' }, matchExpressions: [{ key: 'hardware.metal3.io/cpu-count', operator: 'Gt', values: ['8'] }] },
    } });

    const claimed = await waitForHost('big-1', 'claimed by m1', (host) => host.spec.consumerRef?.name === 'm1');
    expect(claimed.spec.consumerRef?.kind).toBe('Metal3Machine');
    expect(claimed.spec.image).toEqual({ url: IMAGE.url, checksum: IMAGE.checksum, checksumType: 'sha256', format: 'qcow2' });
    expect(claimed.spec.userData).toEqual({ name: 'c1-bootstrap', namespace });
    expect(claimed.spec.online).toBe(true);
    expect(claimed.spec.automatedCleaningMode).toBe('disabled');
    expect(claimed.metadata.labels?.['cluster.x-k8s.io/cluster-name']).toBe('c1');
    // Taken with the claim itself, as CAPM3 1.14 keeps it on a held host: clusterctl move waits for it.
    expect(claimed.metadata.annotations?.[BLOCK_MOVE]).toBe('');
    const secret = await objects.get<{ metadata: { labels?: Record<string, string> } }>('secret', 'big-1-bmc');
    expect(secret.metadata.labels?.['cluster.x-k8s.io/cluster-name']).toBe('c1');
    const associated = await waitForReason('m1', 'AssociateBareMetalHost', 'AssociateBareMetalHostSuccess');
    expect(associated.metadata.annotations?.['metal3.io/BareMetalHost']).toBe(`${namespace}/big-1`);
    expect(associated.metadata.finalizers).toContain('metal3machine.infrastructure.cluster.x-k8s.io');
    for (const other of ['small', 'big-paused', 'big-unhealthy', 'big-error', 'big-inspecting']) {
      const free = await objects.get<Host>('bmh', other);
      expect(free.spec.consumerRef).toBeUndefined();
      expect(free.metadata.annotations?.[BLOCK_MOVE]).toBeUndefined();
    }
    expect(condition(associated, 'Ready')?.status).toBe('False');
    // CAPM3's conditions for the data: associated, and (no template) the spec's Secrets as they are.
    expect(condition(associated, 'AssociateMetal3MachineMetaData')).toMatchObject({ status: 'True', reason: 'AssociateMetal3MachineMetaDataSuccess' });
    expect(condition(associated, 'Metal3DataReady')).toMatchObject({ status: 'True', reason: 'SecretsSetExternally' });

    // The workload cluster's Node, as kubelet registers it with Metal3's uuid label.
    await workload.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node',
      metadata: { name: NODE, labels: { 'metal3.io/uuid': claimed.metadata.uid, 'kubernetes.io/hostname': NODE } } }));
    await setHostState(objects, 'big-1', 'provisioned', { hardware: HARDWARE });
    const provisioned = await waitForMachine('m1', 'provisioned', (m3m) => m3m.status?.initialization?.provisioned === true);
    const providerID = `metal3://${namespace}/big-1/m1`;
    expect(provisioned.spec.providerID).toBe(providerID);
    expect(provisioned.status?.addresses).toEqual([
      { type: 'InternalIP', address: '127.0.0.42' }, { type: 'Hostname', address: NODE }, { type: 'InternalDNS', address: NODE },
    ]);
    expect(condition(provisioned, 'Ready')?.status).toBe('True');
    expect(legacyConditions(provisioned)?.map((c) => `${c.type}=${c.status}`)).toEqual(['Ready=True', 'AssociateBMH=True', 'Metal3DataReady=True']);
    await waitFor(async () => {
      const node = await workload.json<{ spec?: { providerID?: string } }>(['get', 'node', NODE]);
      return node.spec?.providerID === providerID ? node : undefined;
    }, { timeoutMs: 30_000, what: `workload Node ${NODE} to get the providerID` });

    const events = await kubectl.json<{ items: { reason: string; message?: string }[] }>([
      'get', 'events', '-n', namespace, '--field-selector', 'involvedObject.name=m1']);
    expect(events.items.map((event) => event.reason)).toEqual(expect.arrayContaining(['HostClaimed', 'Provisioned', 'NodeLinked']));
    expect(events.items.find((event) => event.reason === 'HostClaimed')?.message).toContain('big-1');
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/controller_runtime_reconcile_total\{controller="metal3machine",result="success"\} [1-9]/);

    // Never re-image a provisioned host: a new image on the machine leaves the host alone.
    await objects.patch('m3m', 'm1', { spec: { image: { ...IMAGE, url: 'http://127.0.0.1:1/other.qcow2' } } });
    const generation = (await objects.get<{ metadata: { generation: number } }>('m3m', 'm1')).metadata.generation;
    await waitForMachine('m1', 'to observe the new generation', (m3m) => (condition(m3m, 'Ready') as Condition & { observedGeneration?: number } | undefined)?.observedGeneration === generation);
    expect((await objects.get<Host>('bmh', 'big-1')).spec.image?.url).toBe(IMAGE.url);
  });

  it('keeps a providerID the Metal3Machine already has (CAPM3 1.12\'s metal3://<uuid>) and gives the Node that one; bootstrap data wins over spec.userData', async () => {
    const legacy = 'metal3://5a2f0c1e-8d4b-4c39-9e57-0b6f3d2a7c11';
    await fakeHost(objects, 'legacy-host', { labels: { pool: 'legacy' } });
    await objects.machine('m-legacy', { cluster: 'c1', dataSecretName: 'c1-bootstrap',
      m3mSpec: { image: IMAGE, providerID: legacy, userData: { name: 'not-the-bootstrap-data' }, hostSelector: { matchLabels: { pool: 'legacy' } } } });
    const claimed = await waitForHost('legacy-host', 'claimed by m-legacy', (host) => host.spec.consumerRef?.name === 'm-legacy');
    // As CAPM3's getUserDataSecretName: the Machine's bootstrap data Secret overrides spec.userData.
    expect(claimed.spec.userData).toEqual({ name: 'c1-bootstrap', namespace });
    await workload.run(['delete', 'node', 'legacy-node', '--ignore-not-found']);
    await workload.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node',
      metadata: { name: 'legacy-node', labels: { 'metal3.io/uuid': claimed.metadata.uid } } }));
    try {
      await setHostState(objects, 'legacy-host', 'provisioned', { hardware: { hostname: 'legacy-node', nics: [] } });
      const provisioned = await waitForMachine('m-legacy', 'provisioned', (m3m) => m3m.status?.initialization?.provisioned === true);
      expect(provisioned.spec.providerID).toBe(legacy);
      await waitFor(async () => ((await workload.ok(['get', 'node', 'legacy-node', '-o', 'jsonpath={.spec.providerID}'])) === legacy ? true : undefined),
        { timeoutMs: 30_000, what: 'Node legacy-node to get the kept providerID' });
      expect((await objects.get<M3M>('m3m', 'm-legacy')).spec.providerID).toBe(legacy);
    } finally {
      await workload.run(['delete', 'node', 'legacy-node', '--ignore-not-found']);
    }
  });

  it('with cloudProviderEnabled leaves the Node to the cloud provider and takes the providerID once a Node carries it', async () => {
    await objects.cluster('cloud', { cloudProviderEnabled: true });
    await objects.apply([workloadKubeconfigSecret(env, 'cloud', namespace)]);
    await fakeHost(objects, 'cloud-host', { labels: { pool: 'cloud' } });
    await objects.machine('m-cloud', { cluster: 'cloud', dataSecretName: 'c1-bootstrap', m3mSpec: { image: IMAGE, hostSelector: { matchLabels: { pool: 'cloud' } } } });
    const claimed = await waitForHost('cloud-host', 'claimed by m-cloud', (host) => host.spec.consumerRef?.name === 'm-cloud');
    // kubelet's Node, with the label that would let the provider link it itself without a cloud provider.
    await workload.run(['delete', 'node', 'cloud-node', '--ignore-not-found']);
    await workload.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node',
      metadata: { name: 'cloud-node', labels: { 'metal3.io/uuid': claimed.metadata.uid } } }));
    try {
      await setHostState(objects, 'cloud-host', 'provisioned', { hardware: { hostname: 'cloud-node', nics: [] } });
      const waiting = await waitForReason('m-cloud', 'NodeLinked', 'WaitingForCloudProviderNode');
      expect(waiting.status?.initialization?.provisioned).not.toBe(true);
      expect(waiting.spec.providerID).toBeUndefined();
      expect(await workload.ok(['get', 'node', 'cloud-node', '-o', 'jsonpath={.spec.providerID}'])).toBe('');

      // The cloud controller manager's part, played here.
      const providerID = `metal3://${namespace}/cloud-host/m-cloud`;
      await workload.ok(['patch', 'node', 'cloud-node', '--type=merge', '-p', JSON.stringify({ spec: { providerID } })]);
      const provisioned = await waitForMachine('m-cloud', 'provisioned', (m3m) => m3m.status?.initialization?.provisioned === true);
      expect(provisioned.spec.providerID).toBe(providerID);
    } finally {
      await workload.run(['delete', 'node', 'cloud-node', '--ignore-not-found']);
    }
  });

  it('with a bootstrap provider\'s config waits for kubelet\'s labelled Node before it is provisioned, as CAPM3 does', async () => {
    await fakeHost(objects, 'kubeadm-host', { labels: { pool: 'kubeadm' } });
    await objects.machine('m-kubeadm', { cluster: 'c1', dataSecretName: 'c1-bootstrap', bootstrapConfig: true,
      m3mSpec: { image: IMAGE, hostSelector: { matchLabels: { pool: 'kubeadm' } } } });
    const claimed = await waitForHost('kubeadm-host', 'claimed by m-kubeadm', (host) => host.spec.consumerRef?.name === 'm-kubeadm');
    await workload.run(['delete', 'node', 'kubeadm-node', '--ignore-not-found']);
    try {
      await setHostState(objects, 'kubeadm-host', 'provisioned', { hardware: { hostname: 'kubeadm-node', nics: [] } });
      const waiting = await waitForReason('m-kubeadm', 'NodeLinked', 'WaitingForNode');
      expect(waiting.status?.initialization?.provisioned).not.toBe(true);
      expect(waiting.spec.providerID).toBeUndefined();

      // kubelet joins with Metal3's label; the machine is provisioned and the Node gets the providerID.
      await workload.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node',
        metadata: { name: 'kubeadm-node', labels: { 'metal3.io/uuid': claimed.metadata.uid } } }));
      const provisioned = await waitForMachine('m-kubeadm', 'provisioned', (m3m) => m3m.status?.initialization?.provisioned === true);
      const providerID = `metal3://${namespace}/kubeadm-host/m-kubeadm`;
      expect(provisioned.spec.providerID).toBe(providerID);
      await waitFor(async () => ((await workload.ok(['get', 'node', 'kubeadm-node', '-o', 'jsonpath={.spec.providerID}'])) === providerID ? true : undefined),
        { timeoutMs: 30_000, what: 'Node kubeadm-node to get the providerID' });
    } finally {
      await workload.run(['delete', 'node', 'kubeadm-node', '--ignore-not-found']);
    }
  });

  it('refuses to guess when two Nodes claim the host, and links the Node once only one does', async () => {
    await fakeHost(objects, 'dup-host', { labels: { pool: 'dup' } });
    await objects.machine('m4', { cluster: 'c1', dataSecretName: 'c1-bootstrap', m3mSpec: { image: IMAGE, hostSelector: { matchLabels: { pool: 'dup' } } } });
    const claimed = await waitForHost('dup-host', 'claimed by m4', (host) => host.spec.consumerRef?.name === 'm4');
    const nodes = ['dup-a', 'dup-b'];
    for (const node of nodes) {
      await workload.run(['delete', 'node', node, '--ignore-not-found']);
      await workload.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node',
        metadata: { name: node, labels: { 'metal3.io/uuid': claimed.metadata.uid } } }));
    }
    try {
      await setHostState(objects, 'dup-host', 'provisioned', { hardware: { hostname: 'dup', nics: [] } });
      const conflict = await waitForReason('m4', 'NodeLinked', 'SettingProviderIDOnNodeFailed');
      expect(condition(conflict, 'NodeLinked')?.message).toContain('2 Nodes match label metal3.io/uuid');
      for (const node of nodes) expect(await workload.ok(['get', 'node', node, '-o', 'jsonpath={.spec.providerID}'])).toBe('');
      await workload.ok(['delete', 'node', 'dup-b']);
      const providerID = `metal3://${namespace}/dup-host/m4`;
      await waitFor(async () => ((await workload.ok(['get', 'node', 'dup-a', '-o', 'jsonpath={.spec.providerID}'])) === providerID ? true : undefined),
        { timeoutMs: 30_000, what: 'Node dup-a to get the providerID' });
      // NodeLinked turns True once Cluster API has copied the providerID to the Machine (played here).
      await waitForReason('m4', 'NodeLinked', 'WaitingForNodeRef');
      await objects.patch('machine', 'm4', { spec: { providerID } });
      await waitForReason('m4', 'NodeLinked', 'NodeLinked');
    } finally {
      for (const node of nodes) await workload.run(['delete', 'node', node, '--ignore-not-found']);
    }
  });

  it('never takes back a provisioned host someone else claimed (CAPM3 issue 3516), and says so', async () => {
    await fakeHost(objects, 'taken-host', { labels: { pool: 'taken' } });
    await objects.machine('m5', { cluster: 'c1', dataSecretName: 'c1-bootstrap', m3mSpec: { image: IMAGE, hostSelector: { matchLabels: { pool: 'taken' } } } });
    await waitForHost('taken-host', 'claimed by m5', (host) => host.spec.consumerRef?.name === 'm5');
    await setHostState(objects, 'taken-host', 'provisioned', { hardware: { hostname: 'taken', nics: [] } });
    await waitForMachine('m5', 'provisioned', (m3m) => m3m.status?.initialization?.provisioned === true);
    const intruder = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3Machine', name: 'intruder', namespace };
    await objects.patch('bmh', 'taken-host', { spec: { consumerRef: intruder } });
    const lost = await waitForReason('m5', 'AssociateBareMetalHost', 'HostClaimedElsewhere');
    expect(condition(lost, 'AssociateBareMetalHost')?.message).toContain('taken-host was claimed by Metal3Machine intruder');
    // A later reconcile (new generation observed) still leaves the host with its new consumer.
    await objects.patch('m3m', 'm5', { spec: { automatedCleaningMode: 'disabled' } });
    const generation = (await objects.get<{ metadata: { generation: number } }>('m3m', 'm5')).metadata.generation;
    await waitForMachine('m5', 'to observe the new generation', (m3m) =>
      (condition(m3m, 'AssociateBareMetalHost') as Condition & { observedGeneration?: number } | undefined)?.observedGeneration === generation);
    expect((await objects.get<Host>('bmh', 'taken-host')).spec.consumerRef?.name).toBe('intruder');
  });

  it('mirrors the Cluster pause onto its host, lifting block-move in the same write, and removes only its own pause', async () => {
    // A host claimed before block-move existed gets it on the next reconcile, as CAPM3's EnsureBlockMoveAnnotation.
    await objects.patch('bmh', 'big-1', { metadata: { annotations: { [BLOCK_MOVE]: null } } });
    await waitForHost('big-1', 'to carry block-move again', (host) => host.metadata.annotations?.[BLOCK_MOVE] === '');
    // One line per version of the host's annotations, from the version it has now.
    const watch = kubectl.lines(['get', 'bmh', 'big-1', '-n', namespace, '--watch', '-o', 'jsonpath={.metadata.annotations}{"\\n"}']);
    await watch.ready;
    await objects.patch('cluster', 'c1', { spec: { paused: true } });
    const paused = await waitForHost('big-1', 'paused by capm3', (host) => host.metadata.annotations?.['baremetalhost.metal3.io/paused'] === 'metal3.io/capm3');
    expect(paused.metadata.annotations?.[BLOCK_MOVE]).toBeUndefined();
    // The watch prints that version a moment after a read can see it.
    const isPaused = (line: string) => 'baremetalhost.metal3.io/paused' in (JSON.parse(line) as Record<string, string>);
    await waitFor(async () => (watch.printed().some(isPaused) ? true : undefined), { timeoutMs: 15_000, what: 'the watch to print the paused host' });
    // No version of the host was ever paused without its status, or movable before both were on it.
    const versions = await watch.stop();
    expect(versions.length).toBeGreaterThanOrEqual(2);
    for (const line of versions) {
      const annotations = JSON.parse(line) as Record<string, string>;
      expect([BLOCK_MOVE in annotations, 'baremetalhost.metal3.io/paused' in annotations, 'baremetalhost.metal3.io/status' in annotations])
        .toEqual(BLOCK_MOVE in annotations ? [true, false, false] : [false, true, true]);
    }
    expect(JSON.parse(paused.metadata.annotations?.['baremetalhost.metal3.io/status'] ?? '{}')).toMatchObject({ provisioning: { state: 'provisioned' } });
    expect(JSON.parse(paused.metadata.annotations?.['baremetalhost.metal3.io/status'] ?? '{}').hardware).toBeUndefined();
    await waitForReason('m1', 'Paused', 'Paused');
    await objects.patch('cluster', 'c1', { spec: { paused: false } });
    const unpaused = await waitForHost('big-1', 'unpaused', (host) => !('baremetalhost.metal3.io/paused' in (host.metadata.annotations ?? {})));
    expect(unpaused.metadata.annotations?.[BLOCK_MOVE]).toBe('');
    await waitForReason('m1', 'Paused', 'NotPaused');
    expect((await objects.get<Host>('bmh', 'big-paused')).metadata.annotations?.['baremetalhost.metal3.io/paused']).toBe('user');
  });

  it('waits with a readable condition when no host is free and takes one as soon as it appears', async () => {
    await objects.machine('m2', { cluster: 'c1', dataSecretName: 'c1-bootstrap', m3mSpec: { image: IMAGE, hostSelector: { matchLabels: { pool: 'late' } } } });
    const waiting = await waitForReason('m2', 'AssociateBareMetalHost', 'AssociateBareMetalHostFailed');
    expect(condition(waiting, 'AssociateBareMetalHost')?.message).toContain('no BareMetalHost in the namespace matches the hostSelector (pool=late)');
    await fakeHost(objects, 'late-1', { labels: { pool: 'late' } });
    await waitForHost('late-1', 'claimed by m2', (host) => host.spec.consumerRef?.name === 'm2');
  });

  it('on deletion lets the host deprovision, then releases it without deleting it', async () => {
    await kubectl.ok(['delete', 'm3m', 'm1', '-n', namespace, '--wait=false']);
    const clearing = await waitForHost('big-1', 'image cleared', (host) => host.spec.image === undefined);
    expect(clearing.spec.userData).toBeUndefined();
    expect(clearing.spec.online).toBe(false);
    expect(clearing.spec.consumerRef?.name).toBe('m1');
    await setHostState(objects, 'big-1', 'deprovisioning');
    const deleting = await waitForReason('m1', 'Ready', 'Deleting');
    expect(condition(deleting, 'Ready')?.message).toContain('deprovision');
    expect((await objects.get<Host>('bmh', 'big-1')).spec.consumerRef?.name).toBe('m1');
    await setHostState(objects, 'big-1', 'available');
    const released = await waitForHost('big-1', 'released', (host) => host.spec.consumerRef === undefined);
    expect(released.metadata.labels?.['cluster.x-k8s.io/cluster-name']).toBeUndefined();
    expect(released.metadata.annotations?.[BLOCK_MOVE]).toBeUndefined();
    const secret = await objects.get<{ metadata: { labels?: Record<string, string> } }>('secret', 'big-1-bmc');
    expect(secret.metadata.labels?.['cluster.x-k8s.io/cluster-name']).toBeUndefined();
    await waitFor(async () => ((await objects.find('m3m', 'm1')) ? undefined : true), { timeoutMs: 30_000, what: 'm1 to be gone' });
    expect(await objects.find('bmh', 'big-1')).toBeDefined();
  });

  it('releases a host that names the machine even when the machine lost its host annotation', async () => {
    await fakeHost(objects, 'orphaned-claim', {});
    await objects.patch('bmh', 'orphaned-claim', { spec: { image: IMAGE_ON_HOST, consumerRef: {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3Machine', name: 'm6', namespace } } });
    await objects.apply([{ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'Metal3Machine',
      metadata: { name: 'm6', namespace, finalizers: ['metal3machine.infrastructure.cluster.x-k8s.io'] }, spec: { image: IMAGE } }]);
    await kubectl.ok(['delete', 'm3m', 'm6', '-n', namespace, '--wait=false']);
    await waitForHost('orphaned-claim', 'image cleared', (host) => host.spec.image === undefined);
    await waitForHost('orphaned-claim', 'released', (host) => host.spec.consumerRef === undefined);
    await waitFor(async () => ((await objects.find('m3m', 'm6')) ? undefined : true), { timeoutMs: 30_000, what: 'm6 to be gone' });
  });

  it('a host that vanished does not hold up deletion', async () => {
    await kubectl.ok(['delete', 'bmh', 'late-1', '-n', namespace]);
    await kubectl.ok(['delete', 'm3m', 'm2', '-n', namespace, '--wait=false']);
    await waitFor(async () => ((await objects.find('m3m', 'm2')) ? undefined : true), { timeoutMs: 30_000, what: 'm2 to be gone' });
  });
});
