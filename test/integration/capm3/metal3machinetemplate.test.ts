import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace } from '../../support/namespaces.ts';
import { deleteProviderNamespace } from '../../support/provider-namespace.ts';
import { installProviderCrds } from '../../support/provider-crds.ts';
import { startProviderProcess, type ProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import { ClusterApiObjects } from './objects.ts';

jest.setTimeout(180_000);

const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const GROUPKIND = 'Metal3MachineTemplate.infrastructure.cluster.x-k8s.io';
const IMAGE = { url: 'http://127.0.0.1:1/image.qcow2', checksum: 'http://127.0.0.1:1/image.qcow2.sha256sum', checksumType: 'sha256', diskFormat: 'qcow2' };

interface M3M { metadata: { name: string }; spec: { automatedCleaningMode?: string } }

describe('Metal3MachineTemplate controller on the real API server', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let objects: ClusterApiObjects;
  let provider: ProviderProcess;

  const template = (name: string, mode?: string) => ({ apiVersion: INFRA, kind: 'Metal3MachineTemplate', metadata: { name, namespace },
    spec: { template: { spec: { image: IMAGE, ...(mode ? { automatedCleaningMode: mode } : {}) } } } });
  /** A Metal3Machine as Cluster API clones it from a template (no Machine: nothing here needs one). */
  const metal3Machine = (name: string, options: { mode?: string; annotations?: Record<string, string> }) => ({
    apiVersion: INFRA, kind: 'Metal3Machine', metadata: { name, namespace, annotations: options.annotations ?? {} },
    spec: { image: IMAGE, ...(options.mode ? { automatedCleaningMode: options.mode } : {}) } });
  const cloneOf = (templateName: string) => ({ 'cluster.x-k8s.io/cloned-from-name': templateName, 'cluster.x-k8s.io/cloned-from-groupkind': GROUPKIND });
  const mode = async (name: string) => (await objects.get<M3M>('m3m', name)).spec.automatedCleaningMode;
  const waitForMode = (name: string, expected: string) => {
    let last: string | undefined;
    return waitFor(async () => {
      last = await mode(name);
      return last === expected ? last : undefined;
    }, { timeoutMs: 60_000, intervalMs: 300, what: `${name} automatedCleaningMode=${expected}` }).catch((error: Error) => {
      throw new Error(`${error.message}; last seen: ${last ?? '(unset)'}`);
    });
  };

  beforeAll(async () => {
    await installProviderCrds(kubectl, env);
    namespace = await createUniqueNamespace(kubectl, 'capm3-m3mt');
    objects = new ClusterApiObjects(kubectl, namespace);
    provider = startProviderProcess({ env, namespace, label: `m3mt-${namespace}` });
  });

  afterAll(async () => {
    await provider?.stop();
    if (namespace) await deleteProviderNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  it('propagates automatedCleaningMode to the Metal3Machines cloned from the template, and to no others', async () => {
    // Created before the template, so every reconcile that syncs the clones has seen them too.
    await objects.apply([
      metal3Machine('stranger', { mode: 'metadata' }),
      metal3Machine('other-template', { mode: 'metadata', annotations: cloneOf('another-template') }),
      metal3Machine('other-kind', { mode: 'metadata', annotations: {
        'cluster.x-k8s.io/cloned-from-name': 'workers', 'cluster.x-k8s.io/cloned-from-groupkind': 'DockerMachineTemplate.infrastructure.cluster.x-k8s.io' } }),
    ]);
    await objects.apply([
      metal3Machine('worker-a', { mode: 'metadata', annotations: cloneOf('workers') }),
      metal3Machine('worker-b', { annotations: cloneOf('workers') }),
    ]);
    await objects.apply([template('workers', 'disabled')]);

    await waitForMode('worker-a', 'disabled');
    await waitForMode('worker-b', 'disabled');
    expect(await mode('stranger')).toBe('metadata');
    expect(await mode('other-template')).toBe('metadata');
    expect(await mode('other-kind')).toBe('metadata');
  });

  it('follows a change of the template, restores hand edits and covers clones made later', async () => {
    await objects.patch('m3mt', 'workers', { spec: { template: { spec: { automatedCleaningMode: 'metadata' } } } });
    await waitForMode('worker-a', 'metadata');
    await waitForMode('worker-b', 'metadata');

    // The template is the source of truth for its clones, as in CAPM3.
    await objects.patch('m3m', 'worker-a', { spec: { automatedCleaningMode: 'disabled' } });
    await waitForMode('worker-a', 'metadata');

    await objects.apply([metal3Machine('worker-c', { annotations: cloneOf('workers') })]);
    await waitForMode('worker-c', 'metadata');
    expect(await mode('stranger')).toBe('metadata');
  });

  it('imposes nothing when the template has no automatedCleaningMode', async () => {
    await objects.apply([metal3Machine('free-a', { mode: 'disabled', annotations: cloneOf('free') }), template('free')]);
    // Templates are queued in creation order: once a template created after 'free' has synced
    // its clone, 'free' has been reconciled too.
    await objects.apply([template('probe', 'disabled'), metal3Machine('probe-a', { mode: 'metadata', annotations: cloneOf('probe') })]);
    await waitForMode('probe-a', 'disabled');
    expect(await mode('free-a')).toBe('disabled');

    // Setting a mode on the same template does reach its clone.
    await objects.patch('m3mt', 'free', { spec: { template: { spec: { automatedCleaningMode: 'metadata' } } } });
    await waitForMode('free-a', 'metadata');
  });
});
