import { describe, expect, it } from '@jest/globals';
import type { Clock } from '../../runtime/clock.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import { AtRestSweep } from './at-rest-sweep.ts';

const silent = { error() {}, warn() {}, info() {}, debug() {}, child() { return silent; } } as never;

function host(name: string, nodeId?: string): KubeObject {
  return { apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { namespace: 'ns', name }, status: nodeId ? { provisioning: { ID: nodeId } } : {} } as KubeObject;
}

function sweepOver(options: { hosts: KubeObject[]; nodes: Map<string, string> }) {
  const woken: string[] = [];
  let lists = 0;
  const sweep = new AtRestSweep({
    nodeDigests: async () => {
      lists += 1;
      return new Map(options.nodes);
    },
    hosts: { list: () => options.hosts },
    wake: (name: ObjectName) => woken.push(name.name),
    intervalMs: 60_000,
    clock: { now: () => 0, setTimer: () => ({ cancel() {} }) } as Clock,
    log: silent,
  });
  return { sweep, woken, lists: () => lists };
}

describe('AtRestSweep', () => {
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

  it('keeps running when a list fails, and stops when its signal aborts', async () => {
    const timers: (() => void)[] = [];
    let calls = 0;
    const sweep = new AtRestSweep({
      nodeDigests: async () => {
        calls += 1;
        if (calls === 1) throw new Error('Ironic is unreachable');
        return new Map();
      },
      hosts: { list: () => [] },
      wake: () => {},
      intervalMs: 60_000,
      clock: { now: () => 0, setTimer: (callback: () => void) => { timers.push(callback); return { cancel() {} }; } } as Clock,
      log: silent,
    });
    const abort = new AbortController();
    const running = sweep.start(abort.signal);
    const tick = async () => {
      while (timers.length === 0) await new Promise((resolve) => setImmediate(resolve));
      timers.shift()!();
    };
    // The first look is at once (and fails); the next after one interval.
    await tick();
    while (calls < 2) await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    await running;
    expect(calls).toBe(2);
  });
});
