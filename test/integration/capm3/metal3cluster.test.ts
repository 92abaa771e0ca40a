import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { freePort } from '../../../hack/stack/ports.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { ClusterApiObjects } from './objects.ts';

jest.setTimeout(180_000);

const FINALIZER = 'metal3cluster.infrastructure.cluster.x-k8s.io';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const CAPI = 'cluster.x-k8s.io/v1beta2';

interface Condition { type: string; status: string; reason: string; message: string; observedGeneration?: number }
interface FailureDomain { name: string; controlPlane?: boolean; attributes?: Record<string, string> }
interface M3C {
  metadata: { generation: number; finalizers?: string[]; annotations?: Record<string, string> };
  spec: { controlPlaneEndpoint?: { host?: string; port?: number }; failureDomains?: FailureDomain[] };
  status?: {
    conditions?: Condition[];
    initialization?: { provisioned?: boolean };
    failureDomains?: FailureDomain[];
    deprecated?: { v1beta1?: { failureReason?: string; failureMessage?: string; conditions?: { type: string; status: string; reason?: string; severity?: string }[] } };
  };
}

describe('Metal3Cluster controller on the real API server (Cluster API objects created directly)', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let objects: ClusterApiObjects;
  let provider: ProviderProcess;
  let diagnosticsPort = 0;
  // A second provider with --watch-filter, in a namespace of its own.
  let filteredNamespace = '';
  let filtered: ProviderProcess | undefined;

  const condition = (m3c: M3C | undefined, type: string) => m3c?.status?.conditions?.find((c) => c.type === type);
  const waitForM3C = (name: string, what: string, accept: (m3c: M3C) => boolean) => {
    let last: M3C | undefined;
    return waitFor(async () => {
      last = await objects.find<M3C>('m3c', name);
      return last && accept(last) ? last : undefined;
    }, { timeoutMs: 60_000, intervalMs: 300, what: `${name} ${what}` }).catch((error: Error) => {
      throw new Error(`${error.message}; last seen: ${JSON.stringify(last ? { metadata: last.metadata, spec: last.spec, status: last.status } : null)}`);
    });
  };
  const waitForReason = (name: string, type: string, status: string, reason: string) =>
    waitForM3C(name, `${type}=${status}/${reason}`, (m3c) => condition(m3c, type)?.status === status && condition(m3c, type)?.reason === reason);
  const waitForProvisioned = (name: string) =>
    waitForM3C(name, 'to be provisioned', (m3c) => m3c.status?.initialization?.provisioned === true && condition(m3c, 'Ready')?.status === 'True');

  /** A Cluster, and a Metal3Cluster it owns (as Cluster API's Cluster controller would link them). */
  const clusterWith = async (name: string, options: { m3cSpec: Record<string, unknown>; annotations?: Record<string, string>;
    labels?: Record<string, string>; paused?: boolean; owned?: boolean; into?: ClusterApiObjects }) => {
    const target = options.into ?? objects;
    const namespace = target.namespace;
    await target.apply([{ apiVersion: CAPI, kind: 'Cluster', metadata: { name, namespace },
      spec: { ...(options.paused ? { paused: true } : {}), infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3Cluster', name } } }]);
    const cluster = await target.get<{ metadata: { uid: string } }>('cluster', name);
    const owner = { apiVersion: CAPI, kind: 'Cluster', name, uid: cluster.metadata.uid };
    await target.apply([{ apiVersion: INFRA, kind: 'Metal3Cluster',
      metadata: { name, namespace, labels: { 'cluster.x-k8s.io/cluster-name': name, ...options.labels }, annotations: options.annotations ?? {},
        ...(options.owned === false ? {} : { ownerReferences: [owner] }) },
      spec: options.m3cSpec }]);
    return { owner };
  };
  const machine = (name: string, cluster: string) => ({ apiVersion: CAPI, kind: 'Machine',
    metadata: { name, namespace, labels: { 'cluster.x-k8s.io/cluster-name': cluster } },
    spec: { clusterName: cluster, bootstrap: { dataSecretName: `${name}-bootstrap` },
      infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'Metal3Machine', name } } });

  beforeAll(async () => {
    await installProviderCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'capm3-m3c');
    objects = new ClusterApiObjects(kubectl, namespace);
    diagnosticsPort = await freePort();
    // The arguments of CAPM3's config/manager/manager.yaml, its variables at their defaults, the
    // diagnostics address moved to loopback and the webhooks off (test/integration/capm3/webhooks.test.ts
    // serves them): every test below runs on a provider started as CAPM3 is, and sees what the
    // controllers do with objects no webhook checked. (Metrics stay plain HTTP for the harness's
    // scrapes; test/integration/deploy/secure-metrics.test.ts serves them as deployed.)
    provider = startProviderProcess({ env, namespace, label: `m3c-${namespace}`,
      extraArgs: ['--webhook-port=0', '--enable-bmh-name-based-preallocation=false', `--diagnostics-address=127.0.0.1:${diagnosticsPort}`, '--insecure-diagnostics=false'] });
  });

  afterAll(async () => {
    await provider?.stop();
    await filtered?.stop();
    for (const ns of [namespace, filteredNamespace].filter(Boolean)) await deleteProviderNamespace(kubectl, ns);
    kubectl.dispose();
  });

  it('says in its log which of CAPM3\'s manager arguments it does not act on, and serves metrics where --diagnostics-address says', async () => {
    type Entry = { level: string; message: string; server?: string; address?: string };
    const entries = await waitFor(async () => {
      const lines = readFileSync(provider.logPath, 'utf8').split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Entry);
      return lines.some((entry) => entry.message === 'serving' && entry.server === 'metrics') ? lines : undefined;
    }, { timeoutMs: 30_000, what: 'the provider serving metrics' });
    expect(entries).toContainEqual(expect.objectContaining({ level: 'info', message: 'webhook server disabled (--webhook-port=0)' }));
    // --diagnostics-address is where the metrics are.
    expect(entries).toContainEqual(expect.objectContaining({ message: 'serving', server: 'metrics', address: `127.0.0.1:${diagnosticsPort}` }));
  });

  it('waits for the Cluster ownerReference without touching the object, then reconciles once adopted', async () => {
    const { owner } = await clusterWith('adopted', { m3cSpec: { controlPlaneEndpoint: { host: '192.0.2.1', port: 6443 } }, owned: false });
    const waiting = await waitForReason('adopted', 'Ready', 'False', 'WaitingForClusterOwnerRef');
    expect(waiting.metadata.finalizers ?? []).not.toContain(FINALIZER);
    expect(waiting.status?.initialization?.provisioned).toBeUndefined();

    // Cluster API's Cluster controller adopting it: only metadata.ownerReferences changes.
    await objects.patch('m3c', 'adopted', { metadata: { ownerReferences: [owner] } });
    const adopted = await waitForProvisioned('adopted');
    expect(adopted.metadata.finalizers).toContain(FINALIZER);

    // Owned by a Cluster that is not there (deleted, or a move half done): CAPM3's reason.
    await objects.apply([{ apiVersion: INFRA, kind: 'Metal3Cluster',
      metadata: { name: 'orphaned', namespace, ownerReferences: [{ ...owner, name: 'gone', uid: '00000000-0000-4000-8000-000000000000' }] },
      spec: { controlPlaneEndpoint: { host: '192.0.2.1', port: 6443 } } }]);
    const orphaned = await waitForReason('orphaned', 'Ready', 'False', 'FailedToGetOwnerCluster');
    expect(condition(orphaned, 'Ready')?.message).toContain(`owner Cluster ${namespace}/gone does not exist`);
    expect(orphaned.metadata.finalizers ?? []).not.toContain(FINALIZER);
  });

  it('names the missing endpoint host in a failed condition, defaults the port, and provisions once the host is set', async () => {
    await clusterWith('no-host', { m3cSpec: {} });
    const failed = await waitForReason('no-host', 'BaremetalInfrastructureReady', 'False', 'ControlPlaneEndpointFailed');
    expect(condition(failed, 'BaremetalInfrastructureReady')?.message).toMatch(/spec\.controlPlaneEndpoint\.host is required/);
    expect(condition(failed, 'Ready')).toMatchObject({ status: 'False', reason: 'ControlPlaneEndpointFailed' });
    expect(failed.status?.deprecated?.v1beta1?.failureReason).toBe('InvalidConfiguration');
    expect(failed.status?.deprecated?.v1beta1?.failureMessage).toMatch(/spec\.controlPlaneEndpoint\.host/);
    // CAPM3's deprecated v1beta1 conditions, which v1beta1 readers see as the conditions.
    expect(failed.status?.deprecated?.v1beta1?.conditions?.map(({ type, status, reason, severity }) => ({ type, status, reason, severity }))).toEqual([
      { type: 'Ready', status: 'False', reason: 'ControlPlaneEndpointFailed', severity: 'Error' },
      { type: 'BaremetalInfrastructureReady', status: 'False', reason: 'ControlPlaneEndpointFailed', severity: 'Error' },
    ]);
    expect(failed.status?.initialization?.provisioned).not.toBe(true);
    expect(failed.metadata.finalizers).toContain(FINALIZER);
    // CAPM3's defaulting webhook sets the port even before there is a host.
    expect(failed.spec.controlPlaneEndpoint?.port).toBe(6443);

    const warning = await waitFor(async () => {
      const events = await kubectl.json<{ items: Array<{ type: string; reason: string; message?: string; involvedObject: { name: string; kind: string } }> }>(
        ['get', 'events', '-n', namespace]);
      return events.items.find((e) => e.involvedObject.kind === 'Metal3Cluster' && e.involvedObject.name === 'no-host' && e.reason === 'ControlPlaneEndpointFailed');
    }, { timeoutMs: 30_000, intervalMs: 500, what: 'a ControlPlaneEndpointFailed event' });
    expect(warning.type).toBe('Warning');
    expect(warning.message).toMatch(/spec\.controlPlaneEndpoint\.host/);

    await objects.patch('m3c', 'no-host', { spec: { controlPlaneEndpoint: { host: '192.0.2.2' } } });
    const fixed = await waitForProvisioned('no-host');
    expect(condition(fixed, 'BaremetalInfrastructureReady')).toMatchObject({ status: 'True', observedGeneration: fixed.metadata.generation });
    expect(fixed.spec.controlPlaneEndpoint).toEqual({ host: '192.0.2.2', port: 6443 });
    expect(fixed.status?.deprecated?.v1beta1?.failureReason).toBeUndefined();
    expect(fixed.status?.deprecated?.v1beta1?.failureMessage).toBeUndefined();
    expect(fixed.status?.deprecated?.v1beta1?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['Ready=True', 'BaremetalInfrastructureReady=True']);
  });

  it('keeps a given port, and copies the failure domains into status as they change', async () => {
    const domains = [{ name: 'rack-a', controlPlane: true }, { name: 'rack-b', controlPlane: false, attributes: { row: '2' } }];
    await clusterWith('racks', { m3cSpec: { controlPlaneEndpoint: { host: '192.0.2.3', port: 7443 }, failureDomains: domains } });
    const ready = await waitForProvisioned('racks');
    expect(ready.spec.controlPlaneEndpoint?.port).toBe(7443);
    expect(ready.status?.failureDomains).toEqual(domains);

    const changed = [{ name: 'rack-c', controlPlane: true }];
    await objects.patch('m3c', 'racks', { spec: { failureDomains: changed } });
    const followed = await waitForM3C('racks', 'to report the new failure domains', (m3c) => m3c.status?.failureDomains?.[0]?.name === 'rack-c');
    expect(followed.status?.failureDomains).toEqual(changed);
  });

  it('leaves an externally managed Metal3Cluster alone', async () => {
    await clusterWith('external', { m3cSpec: {}, annotations: { 'cluster.x-k8s.io/managed-by': 'someone-else' } });
    // Created after it, so reconciled after it: once this one is done, the external one was seen.
    await clusterWith('witness', { m3cSpec: { controlPlaneEndpoint: { host: '192.0.2.4' } } });
    await waitForProvisioned('witness');
    const external = await objects.get<M3C>('m3c', 'external');
    expect(external.metadata.finalizers ?? []).not.toContain(FINALIZER);
    expect(external.status?.conditions ?? []).toEqual([]);
    expect(external.spec.controlPlaneEndpoint?.port).toBeUndefined();

    // Only the annotation kept it out: without it, the same object is reconciled.
    await objects.patch('m3c', 'external', { metadata: { annotations: { 'cluster.x-k8s.io/managed-by': null } } });
    await waitForReason('external', 'BaremetalInfrastructureReady', 'False', 'ControlPlaneEndpointFailed');
  });

  it('stops while the Cluster is paused, and goes on once it is not', async () => {
    await clusterWith('paused-cluster', { m3cSpec: { controlPlaneEndpoint: { host: '192.0.2.5' } }, paused: true });
    const paused = await waitForReason('paused-cluster', 'Paused', 'True', 'Paused');
    expect(condition(paused, 'Paused')?.message).toMatch(/Cluster paused-cluster is paused/);
    expect(paused.metadata.finalizers ?? []).not.toContain(FINALIZER);
    expect(paused.status?.initialization?.provisioned).toBeUndefined();
    expect(paused.spec.controlPlaneEndpoint?.port).toBeUndefined();

    await objects.patch('cluster', 'paused-cluster', { spec: { paused: false } });
    const resumed = await waitForProvisioned('paused-cluster');
    expect(condition(resumed, 'Paused')).toMatchObject({ status: 'False', reason: 'NotPaused' });
    expect(resumed.metadata.finalizers).toContain(FINALIZER);
  });

  it('stops while the Metal3Cluster has the paused annotation', async () => {
    await clusterWith('paused-object', { m3cSpec: { controlPlaneEndpoint: { host: '192.0.2.6' }, failureDomains: [{ name: 'before' }] } });
    await waitForProvisioned('paused-object');
    await objects.patch('m3c', 'paused-object', { metadata: { annotations: { 'cluster.x-k8s.io/paused': '' } } });
    await waitForReason('paused-object', 'Paused', 'True', 'Paused');

    await objects.patch('m3c', 'paused-object', { spec: { failureDomains: [{ name: 'after' }] } });
    // The Paused condition observing the new generation proves a reconcile ran after the change.
    const stillPaused = await waitForM3C('paused-object', 'to observe the spec change while paused', (m3c) =>
      condition(m3c, 'Paused')?.status === 'True' && condition(m3c, 'Paused')?.observedGeneration === m3c.metadata.generation);
    expect(stillPaused.status?.failureDomains).toEqual([{ name: 'before' }]);

    await objects.patch('m3c', 'paused-object', { metadata: { annotations: { 'cluster.x-k8s.io/paused': null } } });
    const resumed = await waitForReason('paused-object', 'Paused', 'False', 'NotPaused');
    await waitForM3C('paused-object', 'to copy the new failure domains', (m3c) => m3c.status?.failureDomains?.[0]?.name === 'after');
    expect(resumed.status?.initialization?.provisioned).toBe(true);
  });

  it('holds deletion while a Machine of its cluster exists and finishes once it is gone', async () => {
    await clusterWith('doomed', { m3cSpec: { controlPlaneEndpoint: { host: '192.0.2.7' } } });
    await waitForProvisioned('doomed');
    // A Machine of another cluster must not hold it.
    await objects.apply([machine('doomed-cp-0', 'doomed'), machine('bystander-0', 'witness')]);

    await kubectl.ok(['delete', 'm3c', 'doomed', '-n', namespace, '--wait=false']);
    const deleting = await waitForReason('doomed', 'Ready', 'False', 'Deleting');
    expect(condition(deleting, 'Ready')?.message).toMatch(/waiting for 1 Machine\(s\) of Cluster doomed .*doomed-cp-0/);
    expect(deleting.metadata.finalizers).toContain(FINALIZER);

    await kubectl.ok(['delete', 'machine', 'doomed-cp-0', '-n', namespace]);
    await waitFor(async () => ((await objects.find('m3c', 'doomed')) === undefined ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 300, what: 'Metal3Cluster doomed to be gone' });
    expect(await objects.find('machine', 'bystander-0')).toBeDefined();
  });

  it('with --watch-filter leaves Metal3Clusters without the filter label alone, even when their Cluster changes', async () => {
    filteredNamespace = await createUniqueNamespace(kubectl, 'capm3-m3c-filter');
    const into = new ClusterApiObjects(kubectl, filteredNamespace);
    filtered = startProviderProcess({ env, namespace: filteredNamespace, label: `m3c-${filteredNamespace}`, extraEnv: { CAPM3_WATCH_FILTER: 'mine' } });
    await clusterWith('theirs', { m3cSpec: { controlPlaneEndpoint: { host: '192.0.2.8' } }, into });
    // A Cluster event maps to its Metal3Cluster: it must not get past the filter that way either.
    await into.patch('cluster', 'theirs', { metadata: { annotations: { touched: '1' } } });
    await clusterWith('mine', { m3cSpec: { controlPlaneEndpoint: { host: '192.0.2.9' } }, labels: { 'cluster.x-k8s.io/watch-filter': 'mine' }, into });
    await waitFor(async () => {
      const mine = await into.find<M3C>('m3c', 'mine');
      return mine?.status?.initialization?.provisioned ? mine : undefined;
    }, { timeoutMs: 60_000, intervalMs: 300, what: 'the labelled Metal3Cluster to be provisioned' });

    const theirs = await into.get<M3C>('m3c', 'theirs');
    expect(theirs.status).toBeUndefined();
    expect(theirs.metadata.finalizers ?? []).toEqual([]);
  });

  it('with --watch-filter still propagates a Metal3MachineTemplate without the filter label, as CAPM3 does', async () => {
    // CAPM3 gives the filter to the Machine, Cluster and Data controllers only: the template controller sees every template.
    const into = new ClusterApiObjects(kubectl, filteredNamespace);
    const image = { url: 'http://127.0.0.1:1/image.qcow2', checksum: 'http://127.0.0.1:1/image.qcow2.sha256sum', checksumType: 'sha256', diskFormat: 'qcow2' };
    await into.apply([{ apiVersion: INFRA, kind: 'Metal3Machine', metadata: { name: 'unlabelled-clone', namespace: filteredNamespace,
      annotations: { 'cluster.x-k8s.io/cloned-from-name': 'unlabelled', 'cluster.x-k8s.io/cloned-from-groupkind': 'Metal3MachineTemplate.infrastructure.cluster.x-k8s.io' } },
    spec: { image, automatedCleaningMode: 'metadata' } }]);
    await into.apply([{ apiVersion: INFRA, kind: 'Metal3MachineTemplate', metadata: { name: 'unlabelled', namespace: filteredNamespace },
      spec: { template: { spec: { image, automatedCleaningMode: 'disabled' } } } }]);
    await waitFor(async () => {
      const clone = await into.get<{ spec: { automatedCleaningMode?: string } }>('m3m', 'unlabelled-clone');
      return clone.spec.automatedCleaningMode === 'disabled' ? clone : undefined;
    }, { timeoutMs: 60_000, intervalMs: 300, what: 'the clone of an unlabelled template to take its automatedCleaningMode' });
  });
});
