import { describe, it, expect, afterEach } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import { Informer } from './informer.ts';
import type { KubeObject, ResourceType } from './kube-object.ts';
import { listerWatcherFor } from './lister-watcher.ts';
import { createResourceClient } from './resource-client.ts';
import { FakeApiServer } from './testing/fake-api-server.ts';
import { FakeClock, flushPromises } from './testing/fake-clock.ts';

const Toy: ResourceType = { group: 'example.com', version: 'v1', kind: 'Toy', plural: 'toys', namespaced: true };
const toy = (name: string, spec: Record<string, unknown> = {}): KubeObject => ({ metadata: { name, namespace: 'ns' }, spec });

function setup(options: { resyncPeriodMs?: number } = {}) {
  const api = new FakeApiServer();
  const clock = new FakeClock();
  const client = createResourceClient(api, Toy);
  const informer = new Informer({
    name: 'Toy',
    listerWatcher: listerWatcherFor(client, { namespace: 'ns', random: () => 0.5 }),
    clock,
    random: () => 0.5,
    resyncPeriodMs: options.resyncPeriodMs,
    backoff: { initialMs: 100, maxMs: 1000 },
  });
  const events: string[] = [];
  informer.addHandler({
    onAdd: (o) => events.push(`add ${o.metadata.name}`),
    onUpdate: (a, b) => events.push(`update ${b.metadata.name} ${JSON.stringify(a.spec)}->${JSON.stringify(b.spec)}`),
    onDelete: (o, info) => events.push(`delete ${o.metadata.name}${info.finalStateUnknown ? ' (unknown)' : ''}`),
    onResync: (o) => events.push(`resync ${o.metadata.name}`),
  });
  const controller = new AbortController();
  const running = informer.run(controller.signal);
  stops.push(async () => {
    controller.abort();
    await running;
  });
  return { api, clock, client, informer, events, controller, running };
}

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe('Informer', () => {
  it('lists, then reports creates, updates with the old object, and deletes', async () => {
    const { api, client, informer, events } = setup();
    await client.create(toy('a', { v: 1 }));
    expect(await informer.waitForSync()).toBe(true);
    await flushPromises();
    expect(events).toEqual(['add a']);
    events.length = 0;

    await client.create(toy('b', { v: 1 }));
    await client.patch({ namespace: 'ns', name: 'b' }, { spec: { v: 2 } }, { type: 'merge' });
    await client.delete({ namespace: 'ns', name: 'b' });
    await flushPromises();
    expect(events).toEqual(['add b', 'update b {"v":1}->{"v":2}', 'delete b']);
    expect(informer.list().map((o) => o.metadata.name)).toEqual(['a']);
    expect(informer.get({ namespace: 'ns', name: 'a' })?.kind).toBe('Toy');
    expect(informer.lastSyncResourceVersion).toBe(api.resourceVersion);
  });

  it('fills its cache from the initial list and replays it to late handlers', async () => {
    const api = new FakeApiServer();
    const client = createResourceClient(api, Toy);
    await client.create(toy('a'));
    await client.create(toy('b'));
    const informer = new Informer({ name: 'Toy', listerWatcher: listerWatcherFor(client), clock: new FakeClock() });
    const controller = new AbortController();
    const running = informer.run(controller.signal);
    stops.push(async () => {
      controller.abort();
      await running;
    });
    await informer.waitForSync();
    const late: string[] = [];
    informer.addHandler({ onAdd: (o) => late.push(o.metadata.name ?? '') });
    expect(late.sort()).toEqual(['a', 'b']);
  });

  it('resumes a broken watch from the last resourceVersion after a backoff, losing no event', async () => {
    const { api, clock, client, informer, events } = setup();
    await informer.waitForSync();
    await client.create(toy('a', { v: 1 }));
    await flushPromises();

    const down = new Error('socket hang up');
    api.intercept = (request) => {
      if (request.query?.watch) throw down;
    };
    api.breakWatches(down);
    await flushPromises();
    expect(informer.restarts).toBe(1);

    // Changes made while the informer is disconnected.
    await client.patch({ namespace: 'ns', name: 'a' }, { spec: { v: 2 } }, { type: 'merge' });
    await client.create(toy('b'));
    await clock.advance(120); // first retry fails too: backoff grows
    expect(informer.restarts).toBe(2);
    api.intercept = undefined;
    await clock.advance(240);
    expect(events).toEqual(['add a', 'update a {"v":1}->{"v":2}', 'add b']);
    expect(api.openWatches).toBe(1);
    const lists = api.requests.filter((r) => r.method === 'GET' && !r.query?.watch);
    expect(lists).toHaveLength(1);
  });

  it('relists on 410 Expired and emits the difference, deletes included', async () => {
    const { api, clock, client, informer, events } = setup();
    await client.create(toy('keep', { v: 1 }));
    await client.create(toy('gone'));
    await informer.waitForSync();
    await flushPromises();
    events.length = 0;

    api.intercept = (request) => {
      if (request.query?.watch) throw new Error('connection refused');
    };
    api.breakWatches(new Error('connection reset'));
    await flushPromises();
    await client.patch({ namespace: 'ns', name: 'keep' }, { spec: { v: 2 } }, { type: 'merge' });
    await client.delete({ namespace: 'ns', name: 'gone' });
    await client.create(toy('new'));
    api.compact();
    api.intercept = undefined;
    await clock.advance(1000);
    expect(events.sort()).toEqual(['add new', 'delete gone (unknown)', 'update keep {"v":1}->{"v":2}']);
    expect(informer.list().map((o) => o.metadata.name).sort()).toEqual(['keep', 'new']);
  });

  it('retries a failing initial list with growing backoff until it succeeds', async () => {
    const api = new FakeApiServer();
    const clock = new FakeClock();
    const client = createResourceClient(api, Toy);
    await client.create(toy('a'));
    let failures = 3;
    api.intercept = (request) => {
      if (!request.query?.watch && failures-- > 0) {
        throw new ApiException(503, 'unavailable', '{"code":503,"reason":"ServiceUnavailable"}', {});
      }
    };
    const informer = new Informer({
      name: 'Toy',
      listerWatcher: listerWatcherFor(client),
      clock,
      random: () => 0,
      backoff: { initialMs: 100, maxMs: 10_000 },
    });
    const controller = new AbortController();
    const running = informer.run(controller.signal);
    stops.push(async () => {
      controller.abort();
      await running;
    });
    await clock.advance(299);
    expect(informer.hasSynced()).toBe(false);
    await clock.advance(401); // 100 + 200 + 400 ms of backoff in total
    expect(informer.hasSynced()).toBe(true);
    expect(informer.restarts).toBe(3);
  });

  it('re-offers every cached object each resync period', async () => {
    const { clock, client, informer, events } = setup({ resyncPeriodMs: 60_000 });
    await client.create(toy('a'));
    await informer.waitForSync();
    await flushPromises();
    events.length = 0;
    await clock.advance(59_000);
    expect(events).toEqual([]);
    await clock.advance(1_000);
    expect(events).toEqual(['resync a']);
    await clock.advance(60_000);
    expect(events).toEqual(['resync a', 'resync a']);
  });

  it('keeps delivering to other handlers when one throws', async () => {
    const { client, informer, events } = setup();
    informer.addHandler({
      onAdd: () => {
        throw new Error('bad handler');
      },
    });
    await informer.waitForSync();
    await client.create(toy('a'));
    await flushPromises();
    expect(events).toEqual(['add a']);
  });

  it('stops cleanly on abort, leaving no watch or timer behind', async () => {
    const { api, clock, informer, controller, running } = setup({ resyncPeriodMs: 1000 });
    await informer.waitForSync();
    await flushPromises();
    controller.abort();
    await running;
    expect(informer.isRunning).toBe(false);
    expect(api.openWatches).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });
});
