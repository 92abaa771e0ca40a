import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { workloadKubeconfigSecret } from '../../../hack/capi/index.ts';
import { freePort } from '../../../hack/stack/ports.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { ClusterApiObjects, fakeHost } from './objects.ts';

jest.setTimeout(300_000);

interface Labelled { metadata: { labels?: Record<string, string> } }
interface Host extends Labelled { spec: { consumerRef?: { name: string } } }

const IMAGE = { url: 'http://127.0.0.1:1/image.qcow2', checksum: 'http://127.0.0.1:1/image.qcow2.sha256sum', checksumType: 'sha256', diskFormat: 'qcow2' };
// Unique per run: the workload API server is shared with other test files.
const NODE = `labelsync-it-${randomBytes(3).toString('hex')}`;
const PREFIXES_ANNOTATION = 'metal3.io/metal3-label-sync-prefixes';

/**
 * CAPM3's label sync with the real provider, the real API server and the stack's workload API
 * server: the test plays Cluster API (Machine status.nodeRef) and kubelet (the Node).
 */
describe('Metal3LabelSync: a claimed host\'s prefixed labels kept on its workload Node', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  const workload = new Kubectl({ kubectl: env.kubectl, kubeconfig: env.workload.kubeconfig });
  let namespace = '';
  let objects: ClusterApiObjects;
  let provider: ProviderProcess;
  let metricsPort = 0;

  const nodeLabels = async () => (await workload.json<Labelled>(['get', 'node', NODE])).metadata.labels ?? {};
  const waitForNodeLabels = (what: string, accept: (labels: Record<string, string>) => boolean) => {
    let last: Record<string, string> = {};
    return waitFor(async () => {
      last = await nodeLabels();
      return accept(last) ? last : undefined;
    }, { timeoutMs: 60_000, intervalMs: 300, what: `Node ${NODE} ${what}` }).catch((error: Error) => {
      throw new Error(`${error.message}; last labels: ${JSON.stringify(last)}`);
    });
  };

  /** Label sync passes so far, whatever their result. */
  const passes = async () => {
    const page = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    return [...page.matchAll(/^controller_runtime_reconcile_total\{controller="metal3labelsync",result="[^"]+"\} (\d+)$/gm)]
      .reduce((sum, match) => sum + Number(match[1]), 0);
  };
  const passAfter = (count: number, what: string) => waitFor(async () => ((await passes()) > count ? true : undefined), { timeoutMs: 60_000, what });

  beforeAll(async () => {
    await installProviderCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'capm3-labelsync');
    objects = new ClusterApiObjects(kubectl, namespace);
    metricsPort = await freePort();
    provider = startProviderProcess({ env, namespace, label: `labelsync-${namespace}`, extraEnv: { METRICS_BIND_ADDRESS: `127.0.0.1:${metricsPort}` } });
  });

  afterAll(async () => {
    await provider?.stop();
    await workload.run(['delete', 'node', NODE, '--ignore-not-found']);
    if (namespace) await deleteProviderNamespace(kubectl, namespace);
    kubectl.dispose();
    workload.dispose();
  });

  it('adds, changes and removes the Node\'s labels under the prefixes as on the host, and nothing else', async () => {
    await objects.cluster('ls');
    await objects.bootstrapSecret('ls-bootstrap', `#cloud-config\nhostname: ${NODE}\n`);
    await objects.apply([workloadKubeconfigSecret(env, 'ls', namespace)]);
    await fakeHost(objects, 'host-a', { labels: {
      role: 'worker', 'rack.example.com/row': '3', 'zone.example.com/name': 'a', 'other.example.com/team': 'blue',
    } });
    await objects.machine('ma', { cluster: 'ls', dataSecretName: 'ls-bootstrap', m3mSpec: { image: IMAGE, hostSelector: { matchLabels: { role: 'worker' } } } });
    await waitFor(async () => ((await objects.find<Host>('bmh', 'host-a'))?.spec.consumerRef?.name === 'ma' ? true : undefined),
      { timeoutMs: 60_000, what: 'host-a claimed by ma' });
    // kubelet registers the Node (one stale label under a prefix); Cluster API records it on the Machine.
    await workload.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node',
      metadata: { name: NODE, labels: { 'kubernetes.io/hostname': NODE, 'rack.example.com/slot': 'stale', 'other.example.com/team': 'red' } } }));
    await objects.patch('machine', 'ma', { status: { nodeRef: { name: NODE } } }, { status: true });

    await objects.patch('metal3cluster', 'ls', { metadata: { annotations: { [PREFIXES_ANNOTATION]: 'rack.example.com, zone.example.com' } } });
    const synced = await waitForNodeLabels('with the host\'s rack and zone labels', (labels) => labels['rack.example.com/row'] === '3');
    expect(synced).toEqual({
      'kubernetes.io/hostname': NODE, 'rack.example.com/row': '3', 'zone.example.com/name': 'a',
      // Outside the prefixes: the Node's own value stays, the host's is not copied.
      'other.example.com/team': 'red',
    });

    // The host's labels change: the Node follows, within the prefixes only.
    await kubectl.ok(['label', 'bmh', 'host-a', '-n', namespace, '--overwrite', 'rack.example.com/row=4', 'zone.example.com/name-', 'other.example.com/team=green']);
    const followed = await waitForNodeLabels('following the host', (labels) => labels['rack.example.com/row'] === '4' && !('zone.example.com/name' in labels));
    expect(followed).toEqual({ 'kubernetes.io/hostname': NODE, 'rack.example.com/row': '4', 'other.example.com/team': 'red' });

    // A label added on the Node under a prefix is taken back to the host's set at the next look.
    await workload.ok(['label', 'node', NODE, '--overwrite', 'rack.example.com/row=9']);
    await objects.patch('metal3cluster', 'ls', { metadata: { annotations: { [PREFIXES_ANNOTATION]: 'rack.example.com' } } });
    await waitForNodeLabels('put back to the host\'s row', (labels) => labels['rack.example.com/row'] === '4');
  });

  it('says why on the Metal3Cluster when a prefix is malformed, and writes nothing', async () => {
    await objects.patch('metal3cluster', 'ls', { metadata: { annotations: { [PREFIXES_ANNOTATION]: 'rack.example.com,Not_A_Prefix' } } });
    const event = await waitFor(async () => {
      const events = await kubectl.json<{ items: { type: string; reason: string; message?: string; note?: string }[] }>(
        ['get', 'events', '-n', namespace, '--field-selector', 'involvedObject.name=ls,involvedObject.kind=Metal3Cluster']);
      return events.items.find((item) => item.reason === 'InvalidLabelSyncPrefixes');
    }, { timeoutMs: 60_000, what: 'an InvalidLabelSyncPrefixes event on Metal3Cluster ls' });
    expect(event.type).toBe('Warning');
    expect(event.message ?? event.note).toContain('invalid prefix "Not_A_Prefix"');
    // The host changes, and the Node does not: the event above came from a reconcile that read the new annotation.
    await kubectl.ok(['label', 'bmh', 'host-a', '-n', namespace, '--overwrite', 'rack.example.com/row=5']);
    await waitFor(async () => {
      const events = await kubectl.json<{ items: { reason: string; count?: number; series?: { count: number } }[] }>(
        ['get', 'events', '-n', namespace, '--field-selector', 'involvedObject.name=ls,involvedObject.kind=Metal3Cluster']);
      const warning = events.items.find((item) => item.reason === 'InvalidLabelSyncPrefixes');
      return (warning?.count ?? 1) > 1 || (warning?.series?.count ?? 0) > 1 ? true : undefined;
    }, { timeoutMs: 60_000, what: 'the warning repeated for the host\'s label change' });
    expect((await nodeLabels())['rack.example.com/row']).toBe('4');
  });

  it('leaves the Node alone while the host is paused, and syncs once it is not', async () => {
    await objects.patch('metal3cluster', 'ls', { metadata: { annotations: { [PREFIXES_ANNOTATION]: 'rack.example.com' } } });
    await waitForNodeLabels('with the host\'s row 5', (labels) => labels['rack.example.com/row'] === '5');
    const beforePause = await passes();
    await kubectl.ok(['annotate', 'bmh', 'host-a', '-n', namespace, 'baremetalhost.metal3.io/paused=test']);
    await passAfter(beforePause, 'a label sync pass after pausing');
    const paused = await passes();
    await kubectl.ok(['label', 'bmh', 'host-a', '-n', namespace, '--overwrite', 'rack.example.com/row=6']);
    await passAfter(paused, 'a label sync pass after the label change');
    expect((await nodeLabels())['rack.example.com/row']).toBe('5');
    await kubectl.ok(['annotate', 'bmh', 'host-a', '-n', namespace, 'baremetalhost.metal3.io/paused-']);
    await waitForNodeLabels('with row 6 once the host is not paused', (labels) => labels['rack.example.com/row'] === '6');
  });
});
