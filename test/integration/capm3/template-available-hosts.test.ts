import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { freePort } from '../../../hack/stack/ports.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { ClusterApiObjects, fakeHost, setHostState } from './objects.ts';

jest.setTimeout(180_000);

const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const IMAGE = { url: 'http://127.0.0.1:1/image.qcow2', checksum: 'http://127.0.0.1:1/image.qcow2.sha256sum', checksumType: 'sha256', diskFormat: 'qcow2' };
const WORKER = { role: 'worker' };

interface Host { spec: { consumerRef?: { kind: string; name: string } } }

/** `capm3_template_available_hosts` series of one namespace from the exposition text: template → value. */
function availableHosts(exposition: string, namespace: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of exposition.split('\n')) {
    const match = /^capm3_template_available_hosts\{([^}]*)\} (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((label) => [label[1], label[2]]));
    if (labels.namespace === namespace && labels.template) counts[labels.template] = Number(match[2]);
  }
  return counts;
}

describe('capm3_template_available_hosts on the real API server, scraped from the provider', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let objects: ClusterApiObjects;
  let provider: ProviderProcess;
  let metricsPort = 0;
  let lastSeen: Record<string, number> = {};

  const scrape = async () => {
    lastSeen = availableHosts(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(), namespace);
    return lastSeen;
  };
  /** Waits until the scraped series of our namespace are exactly `expected`. */
  const waitForCounts = (expected: Record<string, number>, what: string) =>
    waitFor(async () => {
      const counts = await scrape();
      return JSON.stringify(counts, Object.keys(counts).sort()) === JSON.stringify(expected, Object.keys(expected).sort()) ? counts : undefined;
    }, { timeoutMs: 60_000, intervalMs: 300, what: `${what}: ${JSON.stringify(expected)}` }).catch((error: Error) => {
      throw new Error(`${error.message}; last scraped: ${JSON.stringify(lastSeen)}`);
    });
  const template = (name: string, hostSelector?: Record<string, unknown>) => ({ apiVersion: INFRA, kind: 'Metal3MachineTemplate',
    metadata: { name, namespace }, spec: { template: { spec: { image: IMAGE, ...(hostSelector ? { hostSelector } : {}) } } } });

  beforeAll(async () => {
    await installProviderCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'capm3-avail');
    objects = new ClusterApiObjects(kubectl, namespace);
    metricsPort = await freePort();
    provider = startProviderProcess({ env, namespace, label: `avail-${namespace}`, extraEnv: { METRICS_BIND_ADDRESS: `127.0.0.1:${metricsPort}` } });
  });

  afterAll(async () => {
    await provider?.stop();
    if (namespace) await deleteProviderNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  it('counts per template the free hosts its selector matches and follows hosts, templates and claims', async () => {
    await fakeHost(objects, 'worker-1', { labels: WORKER });
    await fakeHost(objects, 'worker-2', { labels: WORKER, state: 'inspecting' });
    await fakeHost(objects, 'control-1', { labels: { role: 'control-plane' } });
    await objects.apply([
      template('workers', { matchLabels: WORKER }),
      template('gpu', { matchLabels: { role: 'gpu' } }),
      template('anything'),
    ]);
    await waitForCounts({ workers: 1, gpu: 0, anything: 2 }, 'counts of the first hosts');

    // A host becoming available, and one going into error, as BMO reports them.
    await setHostState(objects, 'worker-2', 'available');
    await waitForCounts({ workers: 2, gpu: 0, anything: 3 }, 'worker-2 available');
    await setHostState(objects, 'control-1', 'available', { errorMessage: 'BMC unreachable' });
    await waitForCounts({ workers: 2, gpu: 0, anything: 2 }, 'control-1 in error');

    // The provider's own claim takes a worker: one fewer for both templates that match it.
    await objects.cluster('c1');
    await objects.bootstrapSecret('c1-bootstrap', '#cloud-config\n');
    await objects.machine('m1', { cluster: 'c1', dataSecretName: 'c1-bootstrap', m3mSpec: { image: IMAGE, hostSelector: { matchLabels: WORKER } } });
    await waitFor(async () => {
      for (const name of ['worker-1', 'worker-2']) if ((await objects.get<Host>('bmh', name)).spec.consumerRef?.name === 'm1') return name;
      return undefined;
    }, { timeoutMs: 60_000, intervalMs: 300, what: 'm1 to claim a worker' });
    await waitForCounts({ workers: 1, gpu: 0, anything: 1 }, 'a worker claimed by m1');

    // A template's selector changed, a host labelled for it, a template deleted.
    await objects.patch('m3mt', 'gpu', { spec: { template: { spec: { hostSelector: { matchLabels: { role: 'control-plane' } } } } } });
    await setHostState(objects, 'control-1', 'available');
    await waitForCounts({ workers: 1, gpu: 1, anything: 2 }, 'gpu selecting control-plane hosts, control-1 healthy again');
    await kubectl.ok(['delete', 'm3mt', 'anything', '-n', namespace]);
    await waitForCounts({ workers: 1, gpu: 1 }, 'the deleted template gone');
    expect(lastSeen).not.toHaveProperty('anything');
  });
});
