import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { restartKubeApiServer } from '../../support/stack-control.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  addFinalizer,
  generationChanged,
  isBeingDeleted,
  isNotFound,
  keyOf,
  patchStatus,
  removeFinalizer,
} from '../../../operator/runtime/index.ts';
import type { KubeClient, Manager, ResourceClient } from '../../../operator/runtime/index.ts';
import { Toy, createNamespace, installToyCrd, stackTransport, testManager } from './toy-cluster.ts';
import type { ToyObject } from './toy-cluster.ts';

// The integration project's testTimeout is not applied per project by jest 30; set it here.
jest.setTimeout(180_000);

const FINALIZER = 'runtime-test.metal3-ts.io/cleanup';

describe('controller runtime against a real API server', () => {
  let transport: KubeClient;
  let namespace: string;
  let manager: Manager;
  let toys: ResourceClient<ToyObject>;
  const stop = new AbortController();
  let running: Promise<void>;
  const gone: string[] = [];
  const finalized: string[] = [];

  beforeAll(async () => {
    ({ transport } = stackTransport());
    await installToyCrd(transport);
    namespace = await createNamespace(transport, 'rt-controller');
    manager = testManager({ transport, argv: [`--watch-namespace=${namespace}`] });
    toys = manager.client<ToyObject>(Toy);
    const informer = manager.informer<ToyObject>(Toy);
    manager
      .controller('toy')
      .for(Toy, { predicates: [generationChanged] })
      .withOptions({ maxConcurrentReconciles: 2 })
      .complete(async (request, { signal }) => {
        const cached = informer.get(request);
        if (!cached) {
          gone.push(keyOf(request));
          return;
        }
        // Read through to the API: the level-triggered state is what counts.
        let toy: ToyObject;
        try {
          toy = await toys.get(request, { signal });
        } catch (error) {
          if (isNotFound(error)) return;
          throw error;
        }
        if (isBeingDeleted(toy)) {
          finalized.push(keyOf(request));
          await removeFinalizer(toys, toy, FINALIZER, { signal });
          return;
        }
        toy = await addFinalizer(toys, toy, FINALIZER, { signal });
        await patchStatus(toys, toy, { observedValue: toy.spec?.value, observedGeneration: toy.metadata.generation }, { signal });
      });
    running = manager.start(stop.signal);
  });

  afterAll(async () => {
    stop.abort();
    await running;
  });

  const observed = (name: string, value: number) =>
    waitFor(
      async () => {
        const toy = await toys.get({ namespace, name });
        return toy.status?.observedValue === value && toy.status.observedGeneration === toy.metadata.generation ? toy : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: `${name} to observe value ${value}` },
    );

  it('reconciles creates and updates, adding its finalizer', async () => {
    await toys.create({ metadata: { name: 'alpha', namespace }, spec: { value: 1 } });
    const created = await observed('alpha', 1);
    expect(created.metadata.finalizers).toEqual([FINALIZER]);
    await toys.patch({ namespace, name: 'alpha' }, { spec: { value: 2 } }, { type: 'merge' });
    await observed('alpha', 2);
  });

  it('sees deletes: finalizes, then the object is gone and the reconciler hears of it', async () => {
    await toys.create({ metadata: { name: 'beta', namespace }, spec: { value: 1 } });
    await observed('beta', 1);
    await toys.delete({ namespace, name: 'beta' });
    await waitFor(async () => (finalized.includes(`${namespace}/beta`) ? true : undefined), {
      timeoutMs: 30_000,
      what: 'beta to be finalized',
    });
    await waitFor(
      async () => toys.get({ namespace, name: 'beta' }).then(() => undefined, (error: unknown) => (isNotFound(error) ? true : undefined)),
      { timeoutMs: 30_000, what: 'beta to be gone' },
    );
    await waitFor(async () => (gone.includes(`${namespace}/beta`) ? true : undefined), {
      timeoutMs: 30_000,
      what: 'the reconciler to see beta gone',
    });
  });

  it('serves /healthz, /readyz and controller-runtime metrics over HTTP', async () => {
    const health = manager.serverAddress('health');
    const metrics = manager.serverAddress('metrics');
    expect(health && metrics).toBeTruthy();
    const healthz = await fetch(`http://127.0.0.1:${health?.port}/healthz`);
    expect([healthz.status, await healthz.text()]).toEqual([200, 'ok']);
    const readyz = await fetch(`http://127.0.0.1:${health?.port}/readyz?verbose`);
    expect(readyz.status).toBe(200);
    expect(await readyz.text()).toContain('[+]informers ok');
    const text = await (await fetch(`http://127.0.0.1:${metrics?.port}/metrics`)).text();
    expect(text).toMatch(/controller_runtime_reconcile_total\{controller="toy",result="success"\} [1-9]/);
    expect(text).toContain('workqueue_adds_total{name="toy"}');
    expect(text).toContain('controller_runtime_reconcile_time_seconds_bucket');
  });

  it('recovers its watch after an API server restart and reconciles the final state', async () => {
    const informer = manager.informer<ToyObject>(Toy);
    const restartsBefore = informer.restarts;
    await toys.create({ metadata: { name: 'gamma', namespace }, spec: { value: 1 } });
    await observed('gamma', 1);

    await restartKubeApiServer();
    // Changes made the moment the server is back, likely before the informer reconnects.
    for (let value = 2; value <= 5; value++) {
      await waitFor(() => toys.patch({ namespace, name: 'gamma' }, { spec: { value } }, { type: 'merge' }), {
        timeoutMs: 30_000,
        intervalMs: 100,
        what: 'the API server to accept writes',
      });
    }
    await toys.create({ metadata: { name: 'delta', namespace }, spec: { value: 7 } });

    await observed('gamma', 5);
    await observed('delta', 7);
    expect(informer.restarts).toBeGreaterThan(restartsBefore);
    await toys.patch({ namespace, name: 'gamma' }, { spec: { value: 6 } }, { type: 'merge' });
    await observed('gamma', 6);
  });
});
