import { describe, it, expect, afterEach } from '@jest/globals';
import { Registry } from 'prom-client';
import { Controller } from './controller.ts';
import { TerminalError } from './errors.ts';
import { requestForObject, requestsForOwner } from './event-handlers.ts';
import { Informer } from './informer.ts';
import { KubeHttpError } from './kube-client.ts';
import type { WatchEventType } from './kube-client.ts';
import { keyOf } from './kube-object.ts';
import type { KubeObject, OwnerReference, ResourceType } from './kube-object.ts';
import type { ListerWatcher } from './lister-watcher.ts';
import { createRuntimeMetrics } from './metrics.ts';
import { generationChanged } from './predicates.ts';
import { defaultControllerRateLimiter, ItemExponentialFailureRateLimiter } from './rate-limiter.ts';
import type { ReconcileContext, Request, Result } from './reconciler.ts';
import type { WatchEvent } from './resource-client.ts';
import { FakeClock, flushPromises } from './testing/fake-clock.ts';

type Handler = (request: Request, context: ReconcileContext) => Promise<Result | void>;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function startController(handler: Handler, options: { concurrency?: number; registry?: Registry; defaultRateLimiter?: boolean } = {}) {
  const clock = new FakeClock();
  const calls: string[] = [];
  const controller = new Controller({
    name: 'toy',
    clock,
    maxConcurrentReconciles: options.concurrency,
    rateLimiter: options.defaultRateLimiter
      ? defaultControllerRateLimiter<string>({ clock })
      : new ItemExponentialFailureRateLimiter({ baseDelayMs: 5, maxDelayMs: 1000 }),
    metrics: options.registry ? createRuntimeMetrics(options.registry) : undefined,
    reconciler: async (request, context) => {
      calls.push(keyOf(request));
      return handler(request, context);
    },
  });
  const stop = new AbortController();
  const running = controller.start(stop.signal);
  cleanups.push(async () => {
    stop.abort();
    await running;
  });
  return { clock, calls, controller, stop, running };
}

/** A reconcile that waits until the test releases it. */
function gate() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { release, released };
}

describe('Controller', () => {
  it('reconciles an enqueued key once and forgets it on success', async () => {
    const { calls, controller, clock } = startController(async () => ({}));
    controller.enqueue({ namespace: 'ns', name: 'a' });
    controller.enqueue('ns/a');
    await flushPromises();
    expect(calls).toEqual(['ns/a']);
    await clock.advance(10_000);
    expect(calls).toEqual(['ns/a']);
    expect(controller.queue.numRequeues('ns/a')).toBe(0);
  });

  it('retries transient errors with growing backoff, and resets the backoff after a success', async () => {
    let failuresLeft = 3;
    const { calls, controller, clock } = startController(async () => {
      if (failuresLeft-- > 0) throw new Error('ironic busy');
    });
    controller.enqueue('ns/a');
    await flushPromises();
    expect(calls).toHaveLength(1);
    await clock.advance(5);
    expect(calls).toHaveLength(2);
    await clock.advance(9);
    expect(calls).toHaveLength(2);
    await clock.advance(1);
    expect(calls).toHaveLength(3);
    await clock.advance(20);
    expect(calls).toHaveLength(4);
    expect(controller.queue.numRequeues('ns/a')).toBe(0);
  });

  it('does not retry terminal errors', async () => {
    const { calls, controller, clock } = startController(async () => {
      throw new TerminalError('spec.bootMode is not supported');
    });
    controller.enqueue('ns/a');
    await flushPromises();
    await clock.advance(60_000);
    expect(calls).toEqual(['ns/a']);
    expect(controller.queue.numRequeues('ns/a')).toBe(0);
  });

  it('treats errors caused by a TerminalError as terminal', async () => {
    const { calls, controller, clock } = startController(async () => {
      throw new Error('provisioning failed', { cause: new TerminalError('bad image') });
    });
    controller.enqueue('ns/a');
    await flushPromises();
    await clock.advance(60_000);
    expect(calls).toEqual(['ns/a']);
  });

  it('does not retry a create its namespace refused for being deleted: the deletion wakes the object', async () => {
    const { calls, controller, clock } = startController(async () => {
      throw new KubeHttpError(403, 'POST failed', JSON.stringify({ kind: 'Status', code: 403, reason: 'Forbidden',
        details: { causes: [{ reason: 'NamespaceTerminating', field: 'metadata.namespace' }] } }));
    });
    controller.enqueue('ns/a');
    await flushPromises();
    await clock.advance(60_000);
    expect(calls).toEqual(['ns/a']);
    expect(controller.queue.numRequeues('ns/a')).toBe(0);
  });

  it('still retries other refusals (403 without that cause)', async () => {
    const { calls, controller, clock } = startController(async () => {
      throw new KubeHttpError(403, 'POST failed', JSON.stringify({ kind: 'Status', code: 403, reason: 'Forbidden' }));
    });
    controller.enqueue('ns/a');
    await flushPromises();
    await clock.advance(100);
    expect(calls.length).toBeGreaterThan(1);
  });

  it('requeues after the requested delay', async () => {
    let runs = 0;
    const { calls, controller, clock } = startController(async () => (runs++ === 0 ? { requeueAfter: '30s' } : {}));
    controller.enqueue('ns/a');
    await flushPromises();
    await clock.advance(29_999);
    expect(calls).toHaveLength(1);
    await clock.advance(1);
    expect(calls).toHaveLength(2);
  });

  it('runs a key again at once after progress however long its life, with its failure backoff forgotten', async () => {
    // A host's life is dozens of progress steps; they must not add up to a backoff.
    let steps = 40;
    let failures = 1;
    const { calls, controller, clock } = startController(async () => {
      if (steps-- > 0) return { requeueNow: true };
      if (failures-- > 0) throw new Error('ironic busy');
      return {};
    });
    controller.enqueue('ns/a');
    await flushPromises(100);
    expect(calls).toHaveLength(41);
    expect(clock.pendingTimers).toBe(1);
    // The first failure after all that progress waits the base delay, not 5 ms · 2^40.
    await clock.advance(5);
    expect(calls).toHaveLength(42);
    expect(controller.queue.numRequeues('ns/a')).toBe(0);
  });

  it('paces progress of many keys by neither rate limit (the 10 qps bucket guards failures only)', async () => {
    const stepsLeft = new Map<string, number>();
    const { calls, controller } = startController(
      async (request) => {
        const left = stepsLeft.get(request.name) ?? 5;
        stepsLeft.set(request.name, left - 1);
        return left > 0 ? { requeueNow: true } : {};
      },
      { concurrency: 4, defaultRateLimiter: true },
    );
    for (let i = 0; i < 300; i++) controller.enqueue(`ns/h${i}`);
    await flushPromises(3000);
    // 300 keys × 6 passes with the clock standing still: nothing waited on a limiter.
    expect(calls).toHaveLength(1800);
    expect(controller.queue.delayedCount()).toBe(0);
  });

  it('backs off a plain rate-limited requeue (waiting, not progress) as before', async () => {
    const { calls, controller, clock } = startController(async () => ({ requeue: true }));
    controller.enqueue('ns/a');
    await flushPromises();
    await clock.advance(5);
    await clock.advance(10);
    await clock.advance(20);
    expect(calls).toHaveLength(4);
    await clock.advance(39);
    expect(calls).toHaveLength(4);
    expect(controller.queue.numRequeues('ns/a')).toBe(4);
  });

  it('runs different keys in parallel but never the same key twice at once', async () => {
    const gates = new Map<string, ReturnType<typeof gate>>();
    let active = 0;
    let maxActive = 0;
    const { calls, controller } = startController(
      async (request) => {
        active++;
        maxActive = Math.max(maxActive, active);
        const g = gate();
        gates.set(`${keyOf(request)}#${calls.length}`, g);
        await g.released;
        active--;
      },
      { concurrency: 2 },
    );
    controller.enqueue('ns/a');
    controller.enqueue('ns/b');
    await flushPromises();
    expect(calls).toEqual(['ns/a', 'ns/b']);
    expect(maxActive).toBe(2);

    // 'a' changes twice while being reconciled: one more run, only after the first ends.
    controller.enqueue('ns/a');
    controller.enqueue('ns/a');
    await flushPromises();
    expect(calls).toEqual(['ns/a', 'ns/b']);
    gates.get('ns/a#1')?.release();
    await flushPromises();
    expect(calls).toEqual(['ns/a', 'ns/b', 'ns/a']);
    for (const g of gates.values()) g.release();
    await flushPromises();
    for (const g of gates.values()) g.release();
    await flushPromises();
    expect(calls).toEqual(['ns/a', 'ns/b', 'ns/a']);
  });

  it('on shutdown aborts the context, waits for in-flight reconciles and starts no new ones', async () => {
    const g = gate();
    let sawAbort = false;
    const { calls, controller, stop, running } = startController(async (_request, context) => {
      await g.released;
      sawAbort = context.signal.aborted;
    });
    controller.enqueue('ns/a');
    controller.enqueue('ns/b');
    await flushPromises();
    let finished = false;
    void running.then(() => (finished = true));
    stop.abort();
    await flushPromises();
    expect(finished).toBe(false);
    g.release();
    await running;
    expect(sawAbort).toBe(true);
    expect(calls).toEqual(['ns/a']);
  });

  it('records controller-runtime metrics on an injected registry', async () => {
    const registry = new Registry();
    let n = 0;
    const { controller, clock } = startController(
      async () => {
        n++;
        if (n === 1) throw new Error('transient');
        if (n === 2) return { requeueAfter: 1000 };
        if (n === 3) throw new TerminalError('terminal');
      },
      { registry },
    );
    controller.enqueue('ns/a');
    await flushPromises();
    await clock.advance(5);
    await clock.advance(1000);
    const text = await registry.metrics();
    expect(text).toContain('controller_runtime_reconcile_total{controller="toy",result="error"} 2');
    expect(text).toContain('controller_runtime_reconcile_total{controller="toy",result="requeue_after"} 1');
    expect(text).toContain('controller_runtime_reconcile_total{controller="toy",result="success"} 0');
    expect(text).toContain('controller_runtime_reconcile_errors_total{controller="toy"} 2');
    expect(text).toContain('controller_runtime_terminal_reconcile_errors_total{controller="toy"} 1');
    expect(text).toContain('controller_runtime_reconcile_time_seconds_count{controller="toy"} 3');
    expect(text).toContain('workqueue_adds_total{name="toy"} 3');
    expect(text).toContain('workqueue_retries_total{name="toy"} 1');
    expect(text).toContain('workqueue_depth{name="toy"} 0');
    expect(text).toContain('workqueue_queue_duration_seconds_count{name="toy"} 3');
    expect(text).toContain('workqueue_work_duration_seconds_count{name="toy"} 3');
  });
});

/**
 * A ListerWatcher with a fixed initial list and one long-lived watch through which the
 * test pushes events; enough to feed an Informer without any API server.
 */
function scriptedSource(items: KubeObject[] = []) {
  let push: ((event: WatchEvent<KubeObject>) => void) | undefined;
  const listerWatcher: ListerWatcher<KubeObject> = {
    list: async () => ({ items: structuredClone(items), resourceVersion: '1' }),
    watch: ({ signal }, onEvent) =>
      new Promise<void>((resolve) => {
        push = onEvent;
        signal.addEventListener('abort', () => resolve(), { once: true });
      }),
  };
  const emit = (type: WatchEventType, object: KubeObject): void => {
    if (!push) throw new Error('the informer is not watching');
    push({ type, object: structuredClone(object) });
  };
  return { listerWatcher, emit };
}

describe('Controller watches', () => {
  const Toy: ResourceType = { group: 'example.com', version: 'v1', kind: 'Toy', plural: 'toys', namespaced: true };
  const toy = (resourceVersion: string, generation: number, extra: Partial<KubeObject> = {}): KubeObject => ({
    apiVersion: 'example.com/v1',
    kind: 'Toy',
    metadata: { name: 't1', namespace: 'ns', uid: 'uid-t1', resourceVersion, generation },
    ...extra,
  });
  const part = (name: string, ownerReferences: OwnerReference[]): KubeObject => ({
    apiVersion: 'example.com/v1',
    kind: 'Part',
    metadata: { name, namespace: 'ns', resourceVersion: '1', ownerReferences },
  });

  it('enqueues primaries through predicates, controller owners of secondaries, and primaries on resync', async () => {
    const clock = new FakeClock();
    const toys = scriptedSource();
    const parts = scriptedSource();
    const toyInformer = new Informer({ name: 'Toy', listerWatcher: toys.listerWatcher, clock, resyncPeriodMs: 600_000, random: () => 0.5 });
    const partInformer = new Informer({ name: 'Part', listerWatcher: parts.listerWatcher, clock });
    const seen: string[] = [];
    const controller = new Controller({
      name: 'toy',
      clock,
      reconciler: async (request) => {
        seen.push(keyOf(request));
      },
    })
      .watch(toyInformer, { map: requestForObject, predicates: [generationChanged], enqueueOnResync: true })
      .watch(partInformer, { map: requestsForOwner(Toy) });
    expect(controller.informers).toEqual([toyInformer, partInformer]);
    const stop = new AbortController();
    const running = Promise.all([toyInformer.run(stop.signal), partInformer.run(stop.signal), controller.start(stop.signal)]);
    cleanups.push(async () => {
      stop.abort();
      await running;
    });
    await flushPromises();

    toys.emit('ADDED', toy('2', 1, { spec: { size: 1 } }));
    await flushPromises();
    expect(seen).toEqual(['ns/t1']);

    // A status-only write keeps the generation: filtered out.
    toys.emit('MODIFIED', toy('3', 1, { spec: { size: 1 }, status: { ready: true } }));
    await flushPromises();
    expect(seen).toEqual(['ns/t1']);

    toys.emit('MODIFIED', toy('4', 2, { spec: { size: 2 }, status: { ready: true } }));
    await flushPromises();
    expect(seen).toEqual(['ns/t1', 'ns/t1']);

    const ownerRef = { apiVersion: 'example.com/v1', kind: 'Toy', name: 't1', uid: 'uid-t1' };
    parts.emit('ADDED', part('p1', [{ ...ownerRef, controller: true }]));
    await flushPromises();
    expect(seen).toEqual(['ns/t1', 'ns/t1', 'ns/t1']);

    // Not the controller owner, or an owner of another kind: ignored.
    parts.emit('ADDED', part('p2', [ownerRef, { apiVersion: 'other.io/v1', kind: 'Toy', name: 't9', uid: 'u9', controller: true }]));
    await flushPromises();
    expect(seen).toHaveLength(3);

    await clock.advance(600_000);
    expect(seen).toEqual(['ns/t1', 'ns/t1', 'ns/t1', 'ns/t1']);

    toys.emit('DELETED', toy('5', 2));
    await flushPromises();
    expect(seen).toHaveLength(5);
  });

  it('reconciles nothing until every watched informer has synced', async () => {
    const clock = new FakeClock();
    const toys = scriptedSource([toy('1', 1)]);
    let listParts!: () => void;
    const parts: ListerWatcher<KubeObject> = {
      list: () => new Promise((resolve) => (listParts = () => resolve({ items: [], resourceVersion: '1' }))),
      watch: ({ signal }) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
    };
    const toyInformer = new Informer({ name: 'Toy', listerWatcher: toys.listerWatcher, clock });
    const partInformer = new Informer({ name: 'Part', listerWatcher: parts, clock });
    const seen: string[] = [];
    const controller = new Controller({ name: 'toy', clock, reconciler: async (request) => void seen.push(keyOf(request)) })
      .watch(toyInformer, { map: requestForObject })
      .watch(partInformer, { map: requestsForOwner(Toy) });
    const stop = new AbortController();
    const running = Promise.all([toyInformer.run(stop.signal), partInformer.run(stop.signal), controller.start(stop.signal)]);
    cleanups.push(async () => {
      stop.abort();
      await running;
    });
    await flushPromises();
    expect(toyInformer.hasSynced()).toBe(true);
    expect(controller.queue.len()).toBe(1);
    expect(seen).toEqual([]);
    listParts();
    await flushPromises();
    expect(seen).toEqual(['ns/t1']);
  });
});
