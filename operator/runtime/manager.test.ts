import { describe, it, expect } from '@jest/globals';
import { Registry } from 'prom-client';
import { LeaderElectionLostError } from './errors.ts';
import type { KubeObject, ResourceType } from './kube-object.ts';
import { keyOf } from './kube-object.ts';
import { silentLogger } from './logger.ts';
import { Manager } from './manager.ts';
import { generationChanged } from './predicates.ts';
import { createResourceClient } from './resource-client.ts';
import { LeaseResource } from './resources.ts';
import { compileOptions } from './runtime-options.ts';
import { FakeApiServer } from './testing/fake-api-server.ts';
import { FakeClock, flushPromises } from './testing/fake-clock.ts';

const Toy: ResourceType = { group: 'example.com', version: 'v1', kind: 'Toy', plural: 'toys', namespaced: true };

function newManager(api: FakeApiServer, clock: FakeClock, identity: string, argv: string[] = []) {
  const options = compileOptions(
    { argv: ['--metrics-bind-address=0', '--health-probe-bind-address=0', '--pod-namespace=ops', ...argv] },
    { leaderElectionId: 'toy-leader' },
  );
  const manager = new Manager({ name: 'toy-operator', options, transport: api, clock, identity, logger: silentLogger(), registry: new Registry() });
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
    const api = new FakeApiServer();
    const clock = new FakeClock();
    const toys = createResourceClient(api, Toy);
    await toys.create({ metadata: { name: 'a', namespace: 'ns' } } as KubeObject);
    const { manager, seen } = newManager(api, clock, 'm1');
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    await flushPromises();
    expect(seen).toEqual(['ns/a']);
    expect((await manager.readyz.run()).healthy).toBe(true);
    await toys.create({ metadata: { name: 'b', namespace: 'ns' } } as KubeObject);
    await flushPromises();
    expect(seen).toEqual(['ns/a', 'ns/b']);
    stop.abort();
    await running;
    expect(api.openWatches).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it('lets only one of two replicas lead, and hands over when the leader stops', async () => {
    const api = new FakeApiServer();
    const clock = new FakeClock();
    const toys = createResourceClient(api, Toy);
    await toys.create({ metadata: { name: 'a', namespace: 'ns' } } as KubeObject);
    const one = newManager(api, clock, 'one', ['--leader-elect']);
    const two = newManager(api, clock, 'two', ['--leader-elect']);
    const stopOne = new AbortController();
    const stopTwo = new AbortController();
    const runningOne = one.manager.start(stopOne.signal);
    await flushPromises();
    const runningTwo = two.manager.start(stopTwo.signal);
    await clock.advance(30_000);
    expect(one.manager.isLeader()).toBe(true);
    expect(two.manager.isLeader()).toBe(false);
    expect(one.seen).toEqual(['ns/a']);
    expect(two.seen).toEqual([]);

    stopOne.abort();
    await runningOne;
    const lease = await createResourceClient(api, LeaseResource).get({ namespace: 'ops', name: 'toy-leader' });
    expect((lease.spec as { holderIdentity: string }).holderIdentity).toBe('');
    await clock.advance(3_000);
    expect(two.manager.isLeader()).toBe(true);
    expect(two.seen).toEqual(['ns/a']);
    stopTwo.abort();
    await runningTwo;
  });

  it('stops and reports LeaderElectionLostError when the lease cannot be renewed', async () => {
    const api = new FakeApiServer();
    const clock = new FakeClock();
    const { manager } = newManager(api, clock, 'one', ['--leader-elect']);
    const outcome = manager.start(new AbortController().signal).catch((error: unknown) => error);
    await clock.advance(5_000);
    expect(manager.isLeader()).toBe(true);
    api.intercept = (request) => {
      if (request.path.includes('/leases')) throw new Error('apiserver unreachable');
    };
    await clock.advance(15_000);
    expect(await outcome).toBeInstanceOf(LeaderElectionLostError);
    expect(manager.isLeader()).toBe(false);
    expect(api.openWatches).toBe(0);
  });

  it('exposes controller-runtime metrics on its registry', async () => {
    const api = new FakeApiServer();
    const clock = new FakeClock();
    const { manager } = newManager(api, clock, 'm1');
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
});
