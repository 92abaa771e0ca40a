import { describe, it, expect } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { LeaderElectionLostError } from './errors.ts';
import type { KubeRequest, KubeTransport, RawWatchEvent, WatchRequest } from './kube-client.ts';
import type { KubeObject, ResourceType } from './kube-object.ts';
import { keyOf } from './kube-object.ts';
import { silentLogger } from './logger.ts';
import { Manager } from './manager.ts';
import { formatMicroTime } from './micro-time.ts';
import { generationChanged } from './predicates.ts';
import { compileOptions } from './runtime-options.ts';
import { FakeClock, flushPromises } from './testing/fake-clock.ts';

// Managers on a real API server (reconciling, handing a real Lease over, losing it in a
// partition) are tested in test/integration/runtime/.

const Toy: ResourceType = { group: 'example.com', version: 'v1', kind: 'Toy', plural: 'toys', namespaced: true };
const TOYS = '/apis/example.com/v1/toys';
const LEASE = '/apis/coordination.k8s.io/v1/namespaces/ops/leases/toy-leader';

const toy = (name: string, resourceVersion: string): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Toy',
  metadata: { name, namespace: 'ns', resourceVersion, generation: 1 },
});

interface OpenWatch {
  request: WatchRequest;
  emit(event: RawWatchEvent): void;
}

/**
 * Records requests and answers them through `answer`, which each test scripts; watches
 * stay open (the test pushes events into them) until their signal aborts.
 */
class ScriptedTransport implements KubeTransport {
  readonly requests: KubeRequest[] = [];
  readonly watches: OpenWatch[] = [];
  answer: (request: KubeRequest) => unknown;

  constructor(answer: (request: KubeRequest) => unknown) {
    this.answer = answer;
  }

  async request<T>(request: KubeRequest): Promise<T> {
    this.requests.push(request);
    await Promise.resolve();
    return this.answer(request) as T;
  }

  watch(request: WatchRequest, onEvent: (event: RawWatchEvent) => void): Promise<void> {
    return new Promise<void>((resolve) => {
      this.watches.push({ request, emit: onEvent });
      request.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  toRequests(path: string): KubeRequest[] {
    return this.requests.filter((r) => r.path === path);
  }
}

const toyList = (...items: KubeObject[]) => ({ metadata: { resourceVersion: '7' }, items });
const notFound = () => new ApiException(404, 'GET failed', '{"kind":"Status","code":404,"reason":"NotFound"}', {});

function newManager(transport: KubeTransport, clock: FakeClock, identity: string, argv: string[] = []) {
  const options = compileOptions(
    { argv: ['--metrics-bind-address=0', '--health-probe-bind-address=0', '--pod-namespace=ops', ...argv] },
    { leaderElectionId: 'toy-leader' },
  );
  const manager = new Manager({ name: 'toy-operator', options, transport, clock, identity, logger: silentLogger(), registry: new Registry() });
  const seen: string[] = [];
  manager
    .controller('toy')
    .for(Toy, { predicates: [generationChanged] })
    .complete(async (request) => {
      seen.push(keyOf(request));
    });
  return { manager, seen };
}

describe('Manager', () => {
  it('runs informers and controllers, and stops them all on abort', async () => {
    const transport = new ScriptedTransport((request) => {
      if (request.path === TOYS) return toyList(toy('a', '3'));
      throw new Error(`unexpected ${request.method} ${request.path}`);
    });
    const clock = new FakeClock();
    const { manager, seen } = newManager(transport, clock, 'm1');
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    await flushPromises();
    expect(seen).toEqual(['ns/a']);
    expect((await manager.readyz.run()).healthy).toBe(true);
    expect(transport.watches.map((w) => [w.request.path, w.request.query?.resourceVersion])).toEqual([[TOYS, '7']]);

    transport.watches[0]?.emit({ type: 'ADDED', object: toy('b', '8') });
    await flushPromises();
    expect(seen).toEqual(['ns/a', 'ns/b']);
    expect(manager.isLeader()).toBe(true); // no election: it always leads

    stop.abort();
    await running;
    expect(manager.isLeader()).toBe(false);
    expect(transport.watches.every((w) => w.request.signal.aborted)).toBe(true);
    expect(clock.pendingTimers).toBe(0);
    expect(transport.requests.map((r) => r.path)).toEqual([TOYS]); // no Lease without --leader-elect
  });

  it('is not ready until its informers have synced', async () => {
    let answerList!: () => void;
    const transport = new ScriptedTransport(() => new Promise((resolve) => (answerList = () => resolve(toyList()))));
    const { manager } = newManager(transport, new FakeClock(), 'm1');
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    await flushPromises();
    const report = await manager.readyz.run({ verbose: true });
    expect(report.healthy).toBe(false);
    expect(report.body).toContain('not synced: Toy');
    answerList();
    await flushPromises();
    expect((await manager.readyz.run()).healthy).toBe(true);
    stop.abort();
    await running;
  });

  it('as a standby runs no informer or controller until it is elected, then leads and releases the Lease on stop', async () => {
    const clock = new FakeClock();
    let holder = 'other';
    const transport = new ScriptedTransport((request) => {
      if (request.path === TOYS) return toyList(toy('a', '3'));
      if (request.path !== LEASE) throw new Error(`unexpected ${request.method} ${request.path}`);
      if (request.method === 'PUT') return request.body;
      // While `other` holds it, it renews before every look.
      return {
        metadata: { name: 'toy-leader', namespace: 'ops', resourceVersion: '11' },
        spec: { holderIdentity: holder, leaseDurationSeconds: 15, renewTime: formatMicroTime(clock.now()), leaseTransitions: 2 },
      };
    });
    const { manager, seen } = newManager(transport, clock, 'two', ['--leader-elect']);
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    await clock.advance(30_000);
    expect(manager.isLeader()).toBe(false);
    expect((await manager.readyz.run()).healthy).toBe(true); // a standby is ready
    expect(transport.toRequests(TOYS)).toEqual([]);
    expect(transport.watches).toEqual([]);
    expect(transport.requests.every((r) => r.method === 'GET')).toBe(true);
    expect(await manager.registry.metrics()).toContain('leader_election_master_status{name="toy-leader"} 0');

    holder = ''; // released
    await clock.advance(3_000);
    expect(manager.isLeader()).toBe(true);
    expect(seen).toEqual(['ns/a']);
    expect(await manager.registry.metrics()).toContain('leader_election_master_status{name="toy-leader"} 1');
    const [taken] = transport.toRequests(LEASE).filter((r) => r.method === 'PUT');
    expect(taken?.body).toMatchObject({ metadata: { resourceVersion: '11' }, spec: { holderIdentity: 'two', leaseTransitions: 3 } });

    stop.abort();
    await running;
    const released = transport.toRequests(LEASE).at(-1);
    expect(released).toMatchObject({ method: 'PUT', body: { spec: { holderIdentity: '', leaseDurationSeconds: 1 } } });
    expect(transport.watches.every((w) => w.request.signal.aborted)).toBe(true);
  });

  it('stops and reports LeaderElectionLostError when the lease cannot be renewed, without releasing it', async () => {
    const clock = new FakeClock();
    let reachable = true;
    const transport = new ScriptedTransport((request) => {
      if (request.path === TOYS) return toyList();
      if (!reachable) throw new Error('apiserver unreachable');
      if (request.method === 'GET') throw notFound();
      return request.body; // create, then renewals
    });
    const { manager } = newManager(transport, clock, 'one', ['--leader-elect']);
    const outcome = manager.start(new AbortController().signal).catch((error: unknown) => error);
    await clock.advance(5_000);
    expect(manager.isLeader()).toBe(true);
    expect(transport.watches).toHaveLength(1);
    reachable = false;
    const attemptsBefore = transport.requests.length;
    await clock.advance(15_000);
    expect(await outcome).toBeInstanceOf(LeaderElectionLostError);
    expect(manager.isLeader()).toBe(false);
    expect(transport.watches.every((w) => w.request.signal.aborted)).toBe(true);
    const lateWrites = transport.requests.slice(attemptsBefore).filter((r) => r.path.includes('/leases') && r.method !== 'GET');
    expect(lateWrites).toEqual([]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('on a lost lease abandons in-flight reconciles at once instead of draining them', async () => {
    const clock = new FakeClock();
    let reachable = true;
    const transport = new ScriptedTransport((request) => {
      if (request.path === TOYS) return toyList(toy('a', '3'));
      if (!reachable) throw new Error('apiserver unreachable');
      if (request.method === 'GET') throw notFound();
      return request.body;
    });
    const options = compileOptions(
      { argv: ['--metrics-bind-address=0', '--health-probe-bind-address=0', '--pod-namespace=ops', '--leader-elect'] },
      { leaderElectionId: 'toy-leader' },
    );
    const manager = new Manager({ name: 'toy-operator', options, transport, clock, identity: 'one', logger: silentLogger(), registry: new Registry() });
    let inFlight: AbortSignal | undefined;
    // A reconcile stuck in a slow call (an Ironic request, say) that never returns by itself.
    manager.controller('toy').for(Toy).complete((_request, context) => {
      inFlight = context.signal;
      return new Promise(() => {});
    });
    let settled = false;
    const outcome = manager.start(new AbortController().signal).catch((error: unknown) => error).finally(() => {
      settled = true;
    });
    await clock.advance(5_000);
    expect(inFlight).toBeDefined();
    reachable = false;
    await clock.advance(15_000);
    await flushPromises();
    // Draining would hold start() for the graceful shutdown timeout.
    expect(settled).toBe(true);
    expect(await outcome).toBeInstanceOf(LeaderElectionLostError);
    expect(inFlight?.aborted).toBe(true);
  });

  it('on a graceful stop waits for the event writes its reconciles queued', async () => {
    const EVENTS = '/apis/events.k8s.io/v1/namespaces/ns/events';
    let answerEventWrite!: () => void;
    const transport = new ScriptedTransport((request) => {
      if (request.path === TOYS) return toyList(toy('a', '3'));
      if (request.path === EVENTS) return new Promise((resolve) => (answerEventWrite = () => resolve({})));
      throw new Error(`unexpected ${request.method} ${request.path}`);
    });
    const options = compileOptions({ argv: ['--metrics-bind-address=0', '--health-probe-bind-address=0'] }, { leaderElectionId: 'toy-leader' });
    const manager = new Manager({ name: 'toy-operator', options, transport, clock: new FakeClock(), identity: 'm1', logger: silentLogger(), registry: new Registry() });
    const recorder = manager.eventRecorder('example.com/toy-controller');
    manager
      .controller('toy')
      .for(Toy)
      .complete(async (request) => {
        recorder.event(toy(request.name, '3'), { type: 'Normal', reason: 'Seen', action: 'Reconcile', note: 'seen' });
      });
    const stop = new AbortController();
    let stopped = false;
    const running = manager.start(stop.signal).then(() => (stopped = true));
    await flushPromises();
    expect(transport.toRequests(EVENTS)).toHaveLength(1);

    stop.abort();
    await flushPromises();
    expect(stopped).toBe(false); // the event is still being written
    answerEventWrite();
    await running;
    expect(stopped).toBe(true);
  });

  it('exposes controller-runtime metrics on its registry', async () => {
    const transport = new ScriptedTransport(() => toyList());
    const { manager } = newManager(transport, new FakeClock(), 'm1');
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    await flushPromises();
    const text = await manager.registry.metrics();
    expect(text).toContain('controller_runtime_reconcile_total{controller="toy",result="success"} 0');
    expect(text).toContain('workqueue_depth{name="toy"} 0');
    expect(text).toContain('controller_runtime_max_concurrent_reconciles{controller="toy"} 1');
    stop.abort();
    await running;
  });

  it('refuses a second start, and controllers or informers added after the start', async () => {
    const transport = new ScriptedTransport(() => toyList());
    const { manager } = newManager(transport, new FakeClock(), 'm1');
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    await expect(manager.start(stop.signal)).rejects.toThrow(/already started/);
    expect(() => manager.informer({ ...Toy, kind: 'Other', plural: 'others' })).toThrow(/after the manager started/);
    expect(() => manager.add({ start: async () => {} })).toThrow(/before the manager starts/);
    stop.abort();
    await running;
  });
});
