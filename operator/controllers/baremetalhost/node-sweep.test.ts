import { describe, expect, it } from '@jest/globals';
import type { Clock } from '../../runtime/clock.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import { NodeSweep } from './node-sweep.ts';

const silent = { error() {}, warn() {}, info() {}, debug() {}, child() { return silent; } } as never;

function host(name: string, nodeId?: string, state = 'available', operationalStatus = 'OK'): KubeObject {
  return { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { namespace: 'ns', name },
    status: nodeId ? { operationalStatus, provisioning: { ID: nodeId, state } } : {} } as KubeObject;
}

const busyIfProvisioning = (h: KubeObject) => (h.status as { provisioning?: { state?: string } }).provisioning?.state === 'provisioning';
const inError = (h: KubeObject) => (h.status as { operationalStatus?: string }).operationalStatus === 'error';

function sweepOver(options: { hosts: KubeObject[]; nodes: Map<string, string>; reads?: Map<string, { digest: string; atMs: number }>; now?: () => number }) {
  const woken: string[] = [];
  let lists = 0;
  const sweep = new NodeSweep({
    nodeDigests: async () => {
      lists += 1;
      return new Map(options.nodes);
    },
    ...(options.reads ? { lastNodeRead: (nodeId: string) => options.reads!.get(nodeId) } : {}),
    hosts: { list: () => options.hosts },
    wake: (name: ObjectName) => woken.push(name.name),
    restIntervalMs: 60_000,
    busyIntervalMs: 3_000,
    isBusy: busyIfProvisioning,
    waitsOutError: inError,
    clock: { now: options.now ?? (() => 0), setTimer: () => ({ cancel() {} }) } as Clock,
    log: silent,
  });
  return { sweep, woken, lists: () => lists };
}

describe('NodeSweep', () => {
  it('wakes only the hosts whose node changed since the last look, with one list for all', async () => {
    const nodes = new Map([['n1', 'on'], ['n2', 'on'], ['n3', 'on']]);
    const { sweep, woken, lists } = sweepOver({ hosts: [host('h1', 'n1'), host('h2', 'n2'), host('h3', 'n3'), host('new')], nodes });

    expect(await sweep.sweep()).toBe(0);
    nodes.set('n2', 'off');
    expect(await sweep.sweep()).toBe(1);
    expect(await sweep.sweep()).toBe(0);

    expect(woken).toEqual(['h2']);
    expect(lists()).toBe(3);
  });

  it('leaves a host waiting out an error\'s backoff asleep when its node changes, but not when its node is gone', async () => {
    const nodes = new Map([['n1', 'deploy failed'], ['n2', 'deploy failed']]);
    const { sweep, woken } = sweepOver({ hosts: [host('h1', 'n1', 'provisioning', 'error'), host('h2', 'n2', 'provisioning', 'error')], nodes });

    await sweep.sweep();
    nodes.set('n1', 'deploy failed, powered off');
    nodes.delete('n2');
    await sweep.sweep();

    expect(woken).toEqual(['h2']);
  });

  it('wakes a host whose node is gone from Ironic (its database lost), once', async () => {
    const nodes = new Map([['n1', 'on']]);
    const { sweep, woken } = sweepOver({ hosts: [host('h1', 'n1')], nodes });

    await sweep.sweep();
    nodes.clear();
    await sweep.sweep();
    await sweep.sweep();

    expect(woken).toEqual(['h1']);
  });

  it('wakes a host whose node is already gone at its first look (Ironic lost it before any look succeeded), once', async () => {
    const nodes = new Map([['n2', 'on']]);
    const { sweep, woken } = sweepOver({ hosts: [host('h1', 'n1'), host('h2', 'n2')], nodes });

    await sweep.sweep();
    await sweep.sweep();

    expect(woken).toEqual(['h1']);
  });

  it('wakes a host that read its node during an operation that began and ended between two looks', async () => {
    let nowMs = 0;
    const nodes = new Map([['n1', 'manageable'], ['n2', 'manageable']]);
    const reads = new Map<string, { digest: string; atMs: number }>();
    const { sweep, woken } = sweepOver({ hosts: [host('h1', 'n1', 'inspecting'), host('h2', 'n2', 'inspecting')], nodes, reads, now: () => nowMs });

    await sweep.sweep();
    // h1 started an inspection and read it running; it ended before the next look.
    nowMs = 1_000;
    reads.set('n1', { digest: 'inspecting', atMs: nowMs });
    nowMs = 3_000;
    await sweep.sweep();
    expect(woken).toEqual(['h1']);

    // Its read is older than that look now: the look is what it is compared with, so no wake again.
    nowMs = 6_000;
    await sweep.sweep();
    expect(woken).toEqual(['h1']);
  });

  it('compares a host first seen with what it read, so a new host whose node changed after its read is woken', async () => {
    const nodes = new Map([['n1', 'manageable'], ['n2', 'manageable']]);
    const reads = new Map([['n1', { digest: 'inspecting', atMs: 0 }], ['n2', { digest: 'manageable', atMs: 0 }]]);
    const { sweep, woken } = sweepOver({ hosts: [host('h1', 'n1', 'inspecting'), host('h2', 'n2', 'inspecting')], nodes, reads });

    await sweep.sweep();

    expect(woken).toEqual(['h1']);
  });

  it('forgets hosts that left the cache, so a host created again under the same name starts afresh', async () => {
    const nodes = new Map([['n1', 'on'], ['n9', 'off']]);
    const hosts = [host('h1', 'n1')];
    const { sweep, woken } = sweepOver({ hosts, nodes });

    await sweep.sweep();
    hosts.splice(0, 1);
    await sweep.sweep();
    hosts.push(host('h1', 'n9'));
    await sweep.sweep();

    expect(woken).toEqual([]);
  });

  /** A sweep started on a fake clock whose timers fire only when the test says. */
  function runningSweep(options: {
    hosts: KubeObject[]; nodes?: Map<string, string>; fail?: (call: number) => boolean;
    quickBusyInterval?: { ms: number; lookTimeShare: number }; listMs?: (call: number) => number;
  }) {
    let nowMs = 0;
    const timers: { at: number; fire: () => void }[] = [];
    let calls = 0;
    const woken: string[] = [];
    const sweep = new NodeSweep({
      nodeDigests: async () => {
        calls += 1;
        nowMs += options.listMs?.(calls) ?? 0;
        if (options.fail?.(calls)) throw new Error('Ironic is unreachable');
        return new Map(options.nodes);
      },
      hosts: { list: () => options.hosts },
      wake: (name: ObjectName) => woken.push(name.name),
      restIntervalMs: 60_000,
      busyIntervalMs: 3_000,
      isBusy: busyIfProvisioning,
      waitsOutError: inError,
      ...(options.quickBusyInterval ? { quickBusyInterval: options.quickBusyInterval } : {}),
      clock: { now: () => nowMs, setTimer: (fire: () => void, afterMs: number) => { timers.push({ at: nowMs + afterMs, fire }); return { cancel() {} }; } } as Clock,
      log: silent,
    });
    const watchingBeforeStart = sweep.watching();
    const abort = new AbortController();
    const running = sweep.start(abort.signal);
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    /** Lets the sweep's next timer fire (moving the clock to it); returns the lists so far. */
    const tick = async () => {
      while (timers.length === 0) await settle();
      const timer = timers.shift()!;
      nowMs = timer.at;
      timer.fire();
      await settle();
      return calls;
    };
    /** When the next timer is due. */
    const nextAt = async () => {
      while (timers.length === 0) await settle();
      return timers[0]!.at;
    };
    return { sweep, watchingBeforeStart, woken, tick, nextAt, now: () => nowMs, lists: () => calls, stop: async () => { abort.abort(); await running; } };
  }

  it('keeps running when a list fails, and stops when its signal aborts', async () => {
    const run = runningSweep({ hosts: [], fail: (call) => call === 1 });
    // The first look is at once (and fails); at rest the next is a minute later.
    while (run.lists() < 1) await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 19; i++) expect(await run.tick()).toBe(1);
    expect(await run.tick()).toBe(2);
    await run.stop();
    expect(run.lists()).toBe(2);
  });

  it('looks every busy interval while some host waits on Ironic, and back to a minute once none does', async () => {
    const hosts = [host('h1', 'n1'), host('h2', 'n2', 'provisioning')];
    const run = runningSweep({ hosts });
    while (run.lists() < 1) await new Promise((resolve) => setImmediate(resolve));
    expect(await run.tick()).toBe(2);
    expect(await run.tick()).toBe(3);
    // A host waiting out an error's backoff is not waiting on Ironic.
    hosts[1] = host('h2', 'n2', 'provisioning', 'error');
    for (let i = 0; i < 19; i++) expect(await run.tick()).toBe(3);
    expect(await run.tick()).toBe(4);
    await run.stop();
  });

  it('looks every second while hosts are busy and a look takes at most 5 % of the pause after it, never further apart than the busy interval', async () => {
    const hosts = [host('h1', 'n1'), host('h2', 'n2', 'provisioning')];
    // Lists take 0, 100 and 400 ms, then 0 ms again.
    const listTimes = [0, 100, 400, 0];
    const run = runningSweep({ hosts, quickBusyInterval: { ms: 1_000, lookTimeShare: 0.05 }, listMs: (call) => listTimes[call - 1] ?? 0 });
    const pauses: number[] = [];
    for (let look = 1; look <= 3; look++) {
      const at = await run.nextAt();
      pauses.push(at - run.now());
      await run.tick();
    }
    // 0 ms: the one-second floor; 100 ms: 2 s (5 %); 400 ms: 8 s, capped at the busy interval.
    expect(pauses).toEqual([1_000, 2_000, 3_000]);
    // With no host busy, checks come at the busy interval, however cheap the list.
    hosts[1] = host('h2', 'n2');
    await run.tick();
    const at = await run.nextAt();
    expect(at - run.now()).toBe(3_000);
    await run.stop();
  });

  it('watches once a list succeeded; a failed list hands polling back to the hosts waiting on Ironic, once', async () => {
    const hosts = [host('h1', 'n1'), host('h2', 'n2', 'provisioning'), host('h3', 'n3', 'provisioning', 'error')];
    const nodes = new Map([['n1', 'on'], ['n2', 'deploying'], ['n3', 'deploy failed']]);
    const run = runningSweep({ hosts, nodes, fail: (call) => call === 2 || call === 3 });
    expect(run.watchingBeforeStart).toBe(false);
    while (run.lists() < 1) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(run.sweep.watching()).toBe(true);
    expect(run.woken).toEqual([]);

    expect(await run.tick()).toBe(2);
    expect(run.sweep.watching()).toBe(false);
    // Only h2 left its polls to the list: h1 is at rest, h3 waits out its error's backoff.
    expect(run.woken).toEqual(['h2']);
    expect(await run.tick()).toBe(3);
    expect(run.woken).toEqual(['h2']);

    expect(await run.tick()).toBe(4);
    expect(run.sweep.watching()).toBe(true);
    await run.stop();
  });

  it('is not watching when its first list fails', async () => {
    const run = runningSweep({ hosts: [host('h2', 'n2', 'provisioning')], fail: (call) => call === 1 });
    while (run.lists() < 1) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(run.sweep.watching()).toBe(false);
    await run.stop();
  });

  it('refuses a busy interval longer than the one at rest', () => {
    expect(() => new NodeSweep({ nodeDigests: async () => new Map(), hosts: { list: () => [] }, wake: () => {},
      restIntervalMs: 1_000, busyIntervalMs: 3_000, isBusy: () => false, waitsOutError: () => false, clock: {} as Clock, log: silent })).toThrow(RangeError);
  });
});
