import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  CustomResourceDefinitionResource,
  KubeClient,
  Manager,
  NamespaceResource,
  compileOptions,
  createLogger,
  createResourceClient,
  isAlreadyExists,
  loadKubeConfig,
  silentLogger,
} from '../../../operator/runtime/index.ts';
import type { KubeObject, KubeTransport, Logger, ResourceType } from '../../../operator/runtime/index.ts';

/** A throwaway namespaced kind with a status subresource, for exercising the runtime. */
export const Toy: ResourceType = {
  group: 'runtime-test.metal3-ts.io',
  version: 'v1',
  kind: 'Toy',
  plural: 'toys',
  namespaced: true,
};

export interface ToyObject extends KubeObject {
  spec?: { value?: number };
  status?: { observedValue?: number; observedGeneration?: number };
}

// Sent as raw JSON: client-node's ObjectSerializer would drop x-kubernetes-preserve-unknown-fields.
const toyCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${Toy.plural}.${Toy.group}` },
  spec: {
    group: Toy.group,
    scope: 'Namespaced',
    names: { plural: Toy.plural, singular: 'toy', kind: Toy.kind, listKind: 'ToyList' },
    versions: [
      {
        name: Toy.version,
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        },
      },
    ],
  },
};

export function stackTransport(): { transport: KubeClient; kubeconfig: string; kubectl: string } {
  const env = readStackEnv();
  return { transport: new KubeClient(loadKubeConfig(env.kubeconfig)), kubeconfig: env.kubeconfig, kubectl: env.kubectl };
}

/** Creates the Toy CRD (once per stack) and waits until the API serves it. */
export async function installToyCrd(transport: KubeTransport): Promise<void> {
  const crds = createResourceClient(transport, CustomResourceDefinitionResource);
  try {
    await crds.create(toyCrd as unknown as KubeObject);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  await waitFor(
    async () => {
      const crd = (await crds.get({ name: toyCrd.metadata.name })) as KubeObject & {
        status?: { conditions?: { type: string; status: string }[] };
      };
      return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
    },
    { timeoutMs: 30_000, what: 'the Toy CRD to be established' },
  );
  const toys = createResourceClient(transport, Toy);
  await waitFor(async () => (await toys.list({ namespace: 'default' })) && true, { timeoutMs: 30_000, what: 'toys to be served' });
}

/** A fresh namespace per test file; envtest has no namespace controller, so they are left behind. */
export async function createNamespace(transport: KubeTransport, prefix: string): Promise<string> {
  const namespaces = createResourceClient(transport, NamespaceResource);
  const created = await namespaces.create({ metadata: { generateName: `${prefix}-` } });
  return created.metadata.name ?? '';
}

export function testLogger(): Logger {
  const level = process.env.RUNTIME_TEST_LOG;
  return level === 'debug' || level === 'info' || level === 'warn' || level === 'error'
    ? createLogger({ level, defaultMeta: { test: 'runtime' } })
    : silentLogger();
}

export interface TestManagerOptions {
  transport: KubeTransport;
  identity?: string;
  argv?: string[];
}

/** A manager on the stack, servers on random loopback ports, its own registry. */
export function testManager(options: TestManagerOptions): Manager {
  const runtimeOptions = compileOptions(
    {
      argv: ['--metrics-bind-address=127.0.0.1:0', '--health-probe-bind-address=127.0.0.1:0', ...(options.argv ?? [])],
    },
    { leaderElectionId: `runtime-test-${randomUUID().slice(0, 8)}` },
  );
  return new Manager({
    name: 'runtime-test',
    options: runtimeOptions,
    transport: options.transport,
    identity: options.identity,
    registry: new Registry(),
    logger: testLogger(),
  });
}
