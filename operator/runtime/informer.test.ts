import { describe, it, expect, afterEach } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import { Informer, withoutManagedFields } from './informer.ts';
import type { WatchEventType } from './kube-client.ts';
import { KubeStatusError } from './kube-errors.ts';
import type { KubeObject } from './kube-object.ts';
import type { ListerWatcher } from './lister-watcher.ts';
import type { WatchEvent } from './resource-client.ts';
import { FakeClock, flushPromises } from './testing/fake-clock.ts';

type ListReply = { items: KubeObject[]; resourceVersion: string } | { error: unknown };

/** One watch call the informer made; the test decides what it streams and how it ends. */
interface ScriptedWatch {
  resourceVersion: string;
  signal: AbortSignal;
  emit(type: WatchEventType, object: KubeObject): void;
  /** Ends the watch as the server would: cleanly, or failing with `error`. */
  end(error?: unknown): void;
}

/**
 * A ListerWatcher that replays canned answers: each list takes the next queued reply,
 * each watch either fails at once with the next queued error or stays open until the
 * test ends it or the informer aborts it. It keeps no state of its own.
 */
class ScriptedListerWatcher implements ListerWatcher<KubeObject> {
  readonly watches: ScriptedWatch[] = [];
  lists = 0;
  readonly #listReplies: ListReply[] = [];
  readonly #watchFailures: unknown[] = [];

  replyToList(...replies: ListReply[]): void {
    this.#listReplies.push(...replies);
  }

  failNextWatches(...errors: unknown[]): void {
    this.#watchFailures.push(...errors);
  }

  get lastWatch(): ScriptedWatch {
    const last = this.watches.at(-1);
    if (!last) throw new Error('no watch was opened');
    return last;
  }

  async list(): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    this.lists++;
    await Promise.resolve();
    const reply = this.#listReplies.shift();
    if (!reply) throw new Error('unexpected list');
    if ('error' in reply) throw reply.error;
    return { items: reply.items.map((o) => structuredClone(o)), resourceVersion: reply.resourceVersion };
  }

  watch(options: { resourceVersion: string; signal: AbortSignal }, onEvent: (event: WatchEvent<KubeObject>) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let open = true;
      const end = (error?: unknown): void => {
        if (!open) return;
        open = false;
        if (error) reject(error);
        else resolve();
      };
      this.watches.push({
        resourceVersion: options.resourceVersion,
        signal: options.signal,
        emit: (type, object) => {
          if (open) onEvent({ type, object: structuredClone(object) });
        },
        end,
      });
      if (this.#watchFailures.length) {
        end(this.#watchFailures.shift());
        return;
      }
      options.signal.addEventListener('abort', () => end(), { once: true });
    });
  }
}

const toy = (name: string, resourceVersion: string, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Toy',
  metadata: { name, namespace: 'ns', resourceVersion },
  spec,
});
const bookmark = (resourceVersion: string): KubeObject => ({ apiVersion: 'example.com/v1', kind: 'Toy', metadata: { resourceVersion } });

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

function setup(options: { resyncPeriodMs?: number; random?: () => number; initialList?: ListReply[]; transform?: (o: KubeObject) => KubeObject } = {}) {
  const clock = new FakeClock();
  const listerWatcher = new ScriptedListerWatcher();
  listerWatcher.replyToList(...(options.initialList ?? [{ items: [], resourceVersion: '1' }]));
  const informer = new Informer({
    name: 'Toy',
    listerWatcher,
    clock,
    random: options.random ?? (() => 0.5),
    resyncPeriodMs: options.resyncPeriodMs,
    backoff: { initialMs: 100, maxMs: 1000 },
    ...(options.transform ? { transform: options.transform } : {}),
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
  return { clock, listerWatcher, informer, events, controller, running };
}

describe('Informer', () => {
  it('lists, then watches from the list version, reporting creates, updates with the old object, and deletes', async () => {
    const { listerWatcher, informer, events } = setup({ initialList: [{ items: [toy('a', '10', { v: 1 })], resourceVersion: '10' }] });
    expect(await informer.waitForSync()).toBe(true);
    await flushPromises();
    expect(events).toEqual(['add a']);
    expect(listerWatcher.watches.map((w) => w.resourceVersion)).toEqual(['10']);
    events.length = 0;

    const watch = listerWatcher.lastWatch;
    watch.emit('ADDED', toy('b', '11', { v: 1 }));
    watch.emit('MODIFIED', toy('b', '12', { v: 2 }));
    watch.emit('DELETED', toy('b', '13', { v: 2 }));
    expect(events).toEqual(['add b', 'update b {"v":1}->{"v":2}', 'delete b']);
    expect(informer.list().map((o) => o.metadata.name)).toEqual(['a']);
    expect(informer.get({ namespace: 'ns', name: 'a' })?.spec).toEqual({ v: 1 });
    expect(informer.getByKey('ns/b')).toBeUndefined();
    expect(informer.lastSyncResourceVersion).toBe('13');

    // Bookmarks only move the resume point.
    watch.emit('BOOKMARK', bookmark('20'));
    expect(events).toHaveLength(3);
    expect(informer.lastSyncResourceVersion).toBe('20');
    expect(informer.list()).toHaveLength(1);
  });

  it('caches listed and watched objects trimmed by its transform (managedFields dropped)', async () => {
    const managed = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, managedFields: [{ manager: 'kubectl', fieldsV1: { 'f:spec': {} } }] } });
    const { informer, listerWatcher, events } = setup({
      initialList: [{ items: [managed(toy('a', '1', { v: 1 }))], resourceVersion: '1' }],
      transform: withoutManagedFields,
    });
    await informer.waitForSync();
    await flushPromises();
    listerWatcher.lastWatch.emit('ADDED', managed(toy('b', '2')));
    listerWatcher.lastWatch.emit('MODIFIED', managed(toy('a', '3', { v: 2 })));
    expect(events).toEqual(['add a', 'add b', 'update a {"v":1}->{"v":2}']);
    expect(informer.list().map((o) => o.metadata.managedFields)).toEqual([undefined, undefined]);
    expect(informer.get({ namespace: 'ns', name: 'a' })).toEqual(toy('a', '3', { v: 2 }));
  });

  it('fills its cache from the initial list and replays it to late handlers', async () => {
    const { informer, listerWatcher } = setup({
      initialList: [{ items: [toy('a', '1'), toy('b', '2'), { ...toy('c', '3'), metadata: { name: 'c', namespace: 'other', resourceVersion: '3' } }], resourceVersion: '3' }],
    });
    await informer.waitForSync();
    const late: string[] = [];
    informer.addHandler({ onAdd: (o) => late.push(o.metadata.name ?? '') });
    expect(late.sort()).toEqual(['a', 'b', 'c']);
    expect(informer.list('ns').map((o) => o.metadata.name).sort()).toEqual(['a', 'b']);
    expect(listerWatcher.lists).toBe(1);
  });

  it('waitForSync resolves false when its signal aborts before the first list', async () => {
    const { informer } = setup({ initialList: [{ error: new Error('connection refused') }] });
    const abort = new AbortController();
    const waiting = informer.waitForSync(abort.signal);
    abort.abort();
    expect(await waiting).toBe(false);
    expect(informer.hasSynced()).toBe(false);
  });

  it('resumes a broken watch from the last resourceVersion after a growing backoff, without relisting', async () => {
    const { clock, listerWatcher, informer, events } = setup({ initialList: [{ items: [toy('a', '5', { v: 1 })], resourceVersion: '5' }] });
    await informer.waitForSync();
    await flushPromises();
    listerWatcher.lastWatch.emit('MODIFIED', toy('a', '6', { v: 2 }));

    // The connection drops, and the first reconnect is refused too.
    listerWatcher.failNextWatches(new Error('connection refused'));
    listerWatcher.lastWatch.end(new Error('socket hang up'));
    await flushPromises();
    expect(informer.restarts).toBe(1);
    expect(listerWatcher.watches).toHaveLength(1);
    await clock.advance(109); // 100 ms + 10 % jitter
    expect(listerWatcher.watches).toHaveLength(1);
    await clock.advance(1);
    expect(listerWatcher.watches).toHaveLength(2);
    expect(informer.restarts).toBe(2);
    await clock.advance(219); // the backoff doubled
    expect(listerWatcher.watches).toHaveLength(2);
    await clock.advance(1);
    expect(listerWatcher.watches).toHaveLength(3);
    expect(informer.restarts).toBe(2);

    listerWatcher.lastWatch.emit('ADDED', toy('b', '7'));
    expect(events).toEqual(['add a', 'update a {"v":1}->{"v":2}', 'add b']);
    expect(listerWatcher.watches.map((w) => w.resourceVersion)).toEqual(['5', '6', '6']);
    expect(listerWatcher.lists).toBe(1);

    // An event resets the backoff: the next failure waits the initial delay again.
    listerWatcher.lastWatch.end(new Error('socket hang up'));
    await clock.advance(110);
    expect(listerWatcher.watches).toHaveLength(4);
    expect(listerWatcher.lastWatch.resourceVersion).toBe('7');
    expect(informer.restarts).toBe(3);
  });

  it('re-watches at once when the server ends a watch that delivered events, but backs off from an empty one', async () => {
    const { clock, listerWatcher, informer } = setup();
    await informer.waitForSync();
    await flushPromises();
    listerWatcher.lastWatch.emit('ADDED', toy('a', '2'));
    listerWatcher.lastWatch.end(); // e.g. timeoutSeconds reached
    await flushPromises();
    expect(listerWatcher.watches.map((w) => w.resourceVersion)).toEqual(['1', '2']);

    listerWatcher.lastWatch.end(); // closed at once, nothing delivered: a failure in disguise
    await flushPromises();
    expect(listerWatcher.watches).toHaveLength(2);
    await clock.advance(110);
    expect(listerWatcher.watches.map((w) => w.resourceVersion)).toEqual(['1', '2', '2']);
    expect(informer.restarts).toBe(0);
    expect(listerWatcher.lists).toBe(1);
  });

  it.each([
    ['an in-stream ERROR event', () => new KubeStatusError({ kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 3 (42)' })],
    [
      'a 410 response',
      () => new ApiException(410, 'GET failed', '{"kind":"Status","status":"Failure","code":410,"reason":"Gone","message":"too old"}', {}),
    ],
  ])('relists at once on 410 Expired (%s) and emits the difference, deletes included', async (_what, gone) => {
    const { listerWatcher, informer, events } = setup({
      initialList: [{ items: [toy('keep', '1', { v: 1 }), toy('gone', '2'), toy('same', '3')], resourceVersion: '3' }],
    });
    await informer.waitForSync();
    await flushPromises();
    events.length = 0;

    listerWatcher.replyToList({ items: [toy('keep', '9', { v: 2 }), toy('same', '3'), toy('new', '8')], resourceVersion: '10' });
    listerWatcher.lastWatch.end(gone());
    await flushPromises(); // no clock advance: a relist needs no backoff
    expect(listerWatcher.lists).toBe(2);
    expect(events.sort()).toEqual(['add new', 'delete gone (unknown)', 'update keep {"v":1}->{"v":2}']);
    expect(informer.list().map((o) => o.metadata.name).sort()).toEqual(['keep', 'new', 'same']);
    expect(informer.restarts).toBe(0);
    expect(listerWatcher.watches.map((w) => w.resourceVersion)).toEqual(['3', '10']);
  });

  it('retries a failing list with growing backoff, and watches only once it succeeds', async () => {
    const unavailable = () => new ApiException(503, 'unavailable', '{"code":503,"reason":"ServiceUnavailable"}', {});
    const { clock, listerWatcher, informer } = setup({
      random: () => 0,
      initialList: [
        { error: unavailable() },
        { error: unavailable() },
        { error: unavailable() },
        { items: [toy('a', '4')], resourceVersion: '4' },
      ],
    });
    await clock.advance(299);
    expect(listerWatcher.lists).toBe(2);
    await clock.advance(1);
    expect(listerWatcher.lists).toBe(3);
    await clock.advance(399);
    expect(informer.hasSynced()).toBe(false);
    expect(listerWatcher.watches).toHaveLength(0);
    await clock.advance(1); // 100 + 200 + 400 ms of backoff in total
    expect(listerWatcher.lists).toBe(4);
    expect(informer.hasSynced()).toBe(true);
    expect(informer.restarts).toBe(3);
    expect(listerWatcher.watches.map((w) => w.resourceVersion)).toEqual(['4']);
  });

  it('re-offers every cached object each resync period', async () => {
    const { clock, informer, events } = setup({ resyncPeriodMs: 60_000, initialList: [{ items: [toy('a', '1')], resourceVersion: '1' }] });
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
    const { listerWatcher, informer, events } = setup();
    informer.addHandler({
      onAdd: () => {
        throw new Error('bad handler');
      },
    });
    await informer.waitForSync();
    await flushPromises();
    listerWatcher.lastWatch.emit('ADDED', toy('a', '2'));
    listerWatcher.lastWatch.emit('MODIFIED', toy('a', '3', { v: 1 }));
    expect(events).toEqual(['add a', 'update a {}->{"v":1}']);
  });

  it('refuses to run twice', async () => {
    const { informer } = setup();
    await expect(informer.run(new AbortController().signal)).rejects.toThrow(/already running/);
  });

  it('stops cleanly on abort, leaving no watch or timer behind', async () => {
    const { clock, listerWatcher, informer, controller, running } = setup({ resyncPeriodMs: 1000 });
    await informer.waitForSync();
    await flushPromises();
    expect(clock.pendingTimers).toBe(1); // the resync
    controller.abort();
    await running;
    expect(informer.isRunning).toBe(false);
    expect(listerWatcher.watches.every((w) => w.signal.aborted)).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it('stops while waiting out a backoff', async () => {
    const { clock, listerWatcher, informer, controller, running } = setup();
    await informer.waitForSync();
    await flushPromises();
    listerWatcher.lastWatch.end(new Error('socket hang up'));
    await flushPromises();
    expect(clock.pendingTimers).toBe(1);
    controller.abort();
    await running;
    expect(informer.isRunning).toBe(false);
    expect(clock.pendingTimers).toBe(0);
    expect(listerWatcher.watches).toHaveLength(1);
  });
});

describe('Informer over several namespaces (BMO\'s comma-separated WATCH_NAMESPACE)', () => {
  const inNamespace = (namespace: string, name: string, resourceVersion: string): KubeObject =>
    ({ ...toy(name, resourceVersion), metadata: { name, namespace, resourceVersion } });

  it('is synced once every namespace is listed, watches each from its own version, and a relist of one leaves the other\'s objects', async () => {
    const a = new ScriptedListerWatcher();
    const b = new ScriptedListerWatcher();
    a.replyToList({ items: [inNamespace('a', 'one', '10')], resourceVersion: '10' });
    // b's first list fails (say, its Role is not there yet); the second answers.
    b.replyToList({ error: new Error('forbidden') }, { items: [inNamespace('b', 'two', '12')], resourceVersion: '12' });
    const clock = new FakeClock();
    const informer = new Informer({ name: 'Toy', perNamespace: new Map([['a', a], ['b', b]]), clock, random: () => 0.5, backoff: { initialMs: 100, maxMs: 1000 } });
    const events: string[] = [];
    informer.addHandler({ onAdd: (o) => events.push(`add ${o.metadata.namespace}/${o.metadata.name}`), onDelete: (o) => events.push(`delete ${o.metadata.namespace}/${o.metadata.name}`) });
    const controller = new AbortController();
    const running = informer.run(controller.signal);
    stops.push(async () => {
      controller.abort();
      await running;
    });
    await flushPromises();
    expect(a.watches).toHaveLength(1);
    expect(informer.hasSynced()).toBe(false);
    await clock.advance(200);
    await flushPromises();
    expect(await informer.waitForSync()).toBe(true);
    expect(a.watches.map((w) => w.resourceVersion)).toEqual(['10']);
    expect(b.watches.map((w) => w.resourceVersion)).toEqual(['12']);
    expect(informer.list().map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort()).toEqual(['a/one', 'b/two']);

    // b's version expires: its relist no longer has two, and a's one stays.
    a.lastWatch.emit('BOOKMARK', bookmark('15'));
    b.replyToList({ items: [], resourceVersion: '20' });
    b.lastWatch.end(new KubeStatusError({ kind: 'Status', code: 410, reason: 'Expired', message: 'too old' }));
    await flushPromises();
    await flushPromises();
    expect(events).toContain('delete b/two');
    expect(events).not.toContain('delete a/one');
    expect(informer.list(undefined).map((o) => o.metadata.name)).toEqual(['one']);
    expect(informer.lastSyncResourceVersion).toBe('15,20');
  });
});
