import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startApiServerPeer, startKubeApiServer, stopApiServerPeer, stopKubeApiServer } from '../../support/stack-control.ts';
import { waitFor } from '../../support/wait-for.ts';
import { PeriodicSampler } from '../../e2e/faults/periodic-sampler.ts';
import {
  KubeClient, LeaderElectionLostError, LeaseResource, NotLeaderError, createResourceClient, keyOf, loadKubeConfig, patchStatus,
} from '../../../operator/runtime/index.ts';
import type { KubeRequest, KubeTransport, Lease, Manager, ResourceClient } from '../../../operator/runtime/index.ts';
import { Toy, createNamespace, installToyCrd, stackTransport, testManager } from './toy-cluster.ts';
import type { ToyObject } from './toy-cluster.ts';

// The stack's API server stopped and started again under a leader-elected manager, while a
// second API server on the same etcd (an HA control plane's other member) stays up: objects
// change through it while the manager's API server is down. First an outage shorter than the
// renew deadline (the leader keeps its Lease and misses nothing), then one longer (the leader
// stops writing, exits, and a standby on the other API server takes over). Stops a stack
// component: runs alone (test/support/exclusive-files.ts).
jest.setTimeout(180_000);

/** Every request that got past the manager's fence (it wraps this transport), with when. */
function recordingTransport(inner: KubeTransport): { transport: KubeTransport; writes: { atMs: number; request: KubeRequest }[] } {
  const writes: { atMs: number; request: KubeRequest }[] = [];
  return {
    writes,
    transport: {
      request<T>(request: KubeRequest): Promise<T> {
        if (request.method !== 'GET') writes.push({ atMs: Date.now(), request });
        return inner.request<T>(request);
      },
      watch: (request, onEvent) => inner.watch(request, onEvent),
    },
  };
}

/** The last Lease record written by `holder`, read through the other API server. */
class LastRenewalBy extends PeriodicSampler {
  last: Lease | undefined;
  readonly #read: () => Promise<Lease>;
  readonly #holder: string;

  constructor(read: () => Promise<Lease>, holder: string) {
    super();
    this.#read = read;
    this.#holder = holder;
  }

  protected async read(): Promise<void> {
    const lease = await this.#read();
    if (lease.spec?.holderIdentity === this.#holder) this.last = lease;
  }
}

function leaderArgs(options: { leaseId: string; namespace: string; durations: [string, string, string] }): string[] {
  const [lease, deadline, retry] = options.durations;
  return ['--leader-elect', `--leader-election-id=${options.leaseId}`, `--leader-election-namespace=${options.namespace}`,
    `--leader-elect-lease-duration=${lease}`, `--leader-elect-renew-deadline=${deadline}`, `--leader-elect-retry-period=${retry}`,
    `--watch-namespace=${options.namespace}`];
}

describe('a leader-elected manager across a restart of its API server', () => {
  let base: KubeClient;
  let peer: KubeClient;
  const stops: AbortController[] = [];
  const running: Promise<unknown>[] = [];
  let apiServerDown = false;
  const stopApiServer = async () => {
    apiServerDown = true;
    await stopKubeApiServer();
  };
  const startApiServer = async () => {
    await startKubeApiServer();
    apiServerDown = false;
  };

  /**
   * Starts a manager reconciling Toys: status.observedValue follows spec.value. A toy named
   * `ticker` is written every 300 ms and, while writes fail, tried again every 50 ms without
   * backing off: a leader that keeps trying to write, up to the moment it knows it lost.
   */
  function startToyManager(manager: Manager, seen: { reconciled: string[]; gone: string[]; refused: number }) {
    const toys = manager.client<ToyObject>(Toy);
    const informer = manager.informer<ToyObject>(Toy);
    manager.controller('toy').for(Toy).complete(async (request, { signal }) => {
      seen.reconciled.push(keyOf(request));
      if (!informer.get(request)) {
        seen.gone.push(keyOf(request));
        return;
      }
      const ticker = request.name === 'ticker';
      try {
        // The ticker writes from the cache: a read through to a dead API server would fail first.
        const toy = ticker ? informer.get(request)! : await toys.get(request, { signal });
        await patchStatus(toys, toy, { observedValue: toy.spec?.value, observedGeneration: toy.metadata.generation }, { signal });
      } catch (error) {
        if (!ticker) throw error;
        if (error instanceof NotLeaderError) seen.refused++;
        return { requeueAfter: 50 };
      }
      return ticker ? { requeueAfter: 300 } : {};
    });
    const stop = new AbortController();
    stops.push(stop);
    const started = manager.start(stop.signal).then(() => undefined, (error: unknown) => error);
    running.push(started);
    return { toys, informer, started };
  }

  const observed = (toys: ResourceClient<ToyObject>, namespace: string, name: string, value: number) => waitFor(async () => {
    const toy = await toys.get({ namespace, name });
    return toy.status?.observedValue === value ? toy : undefined;
  }, { timeoutMs: 60_000, intervalMs: 300, what: `${name} to observe value ${value}` });

  beforeAll(async () => {
    ({ transport: base } = stackTransport());
    await installToyCrd(base);
    const started = await startApiServerPeer();
    peer = new KubeClient(loadKubeConfig(started.kubeconfig));
  });

  afterAll(async () => {
    // A failure mid-outage must not leave the stack without its API server.
    if (apiServerDown) await startKubeApiServer();
    for (const stop of stops) stop.abort();
    await Promise.all(running);
    await stopApiServerPeer();
  });

  it('an outage shorter than the renew deadline: the same holder renews, every change made meanwhile is reconciled', async () => {
    const namespace = await createNamespace(base, 'rt-apiserver');
    const leaseId = `apiserver-restart-${randomUUID().slice(0, 6)}`;
    const seen = { reconciled: [] as string[], gone: [] as string[], refused: 0 };
    // A Lease long enough to ride out the restart.
    const manager = testManager({ transport: base, identity: 'rides-it-out', argv: leaderArgs({ leaseId, namespace, durations: ['60s', '45s', '1s'] }) });
    const { toys, informer } = startToyManager(manager, seen);
    const viaPeer = createResourceClient<ToyObject>(peer, Toy);
    const lease = () => createResourceClient<Lease>(peer, LeaseResource).get({ namespace, name: leaseId });
    await waitFor(async () => (manager.isLeader() ? true : undefined), { timeoutMs: 30_000, what: 'the manager to lead' });
    await toys.create({ metadata: { name: 'kept', namespace }, spec: { value: 1 } });
    await toys.create({ metadata: { name: 'doomed', namespace }, spec: { value: 1 } });
    await observed(toys, namespace, 'kept', 1);
    await observed(toys, namespace, 'doomed', 1);
    const restartsBefore = informer.restarts;

    await stopApiServer();
    const leaseBefore = await lease();
    // Through the other API server while the manager's is down: an update, a create, a delete.
    await viaPeer.patch({ namespace, name: 'kept' }, { spec: { value: 2 } }, { type: 'merge' });
    await viaPeer.create({ metadata: { name: 'born', namespace }, spec: { value: 3 } });
    await viaPeer.delete({ namespace, name: 'doomed' });
    await startApiServer();

    await observed(toys, namespace, 'kept', 2);
    await observed(toys, namespace, 'born', 3);
    await waitFor(async () => (seen.gone.includes(`${namespace}/doomed`) ? true : undefined), { timeoutMs: 60_000, what: 'the manager to see doomed gone' });
    expect(informer.restarts).toBeGreaterThan(restartsBefore);
    // Renewals resumed: the same holder, a later renewTime, no transition.
    const renewed = await waitFor(async () => {
      const current = await lease();
      return (current.spec?.renewTime ?? '') > (leaseBefore.spec?.renewTime ?? '') ? current : undefined;
    }, { timeoutMs: 30_000, intervalMs: 300, what: 'the Lease to be renewed after the restart' });
    expect(renewed.spec).toMatchObject({
      holderIdentity: 'rides-it-out', acquireTime: leaseBefore.spec?.acquireTime, leaseTransitions: leaseBefore.spec?.leaseTransitions,
    });
    expect(manager.isLeader()).toBe(true);
  });

  it('an outage past the renew deadline: the leader writes nothing after it, exits, and the standby takes the Lease and the work', async () => {
    const namespace = await createNamespace(base, 'rt-apiserver-lost');
    const leaseId = `apiserver-lost-${randomUUID().slice(0, 6)}`;
    // The fence shuts at the renew deadline (5 s after the last renewal was sent); the elector,
    // trying every 2 s, notices the loss at its next attempt about a second later. The ticker
    // keeps trying to write in between: the fence must refuse it.
    const durations: [string, string, string] = ['10s', '5s', '2s'];
    const [leaseDurationMs, renewDeadlineMs] = [10_000, 5_000];
    const recorded = recordingTransport(base);
    const leader = testManager({ transport: recorded.transport, identity: 'cut-off', argv: leaderArgs({ leaseId, namespace, durations }) });
    const leaderSeen = { reconciled: [] as string[], gone: [] as string[], refused: 0 };
    const leaderRun = startToyManager(leader, leaderSeen);
    await waitFor(async () => (leader.isLeader() ? true : undefined), { timeoutMs: 30_000, what: 'the leader to lead' });
    // The standby reaches etcd through the other API server only.
    const standbySeen = { reconciled: [] as string[], gone: [] as string[], refused: 0 };
    const standby = testManager({ transport: peer, identity: 'standby', argv: leaderArgs({ leaseId, namespace, durations }) });
    const { toys: viaPeer } = startToyManager(standby, standbySeen);
    const lease = () => createResourceClient<Lease>(peer, LeaseResource).get({ namespace, name: leaseId });
    await leaderRun.toys.create({ metadata: { name: 'ticker', namespace }, spec: { value: 1 } });
    await observed(viaPeer, namespace, 'ticker', 1);
    const toyWrites = () => recorded.writes.filter(({ request }) => request.path.includes('/toys/'));
    await waitFor(async () => (toyWrites().length >= 5 ? true : undefined), { timeoutMs: 30_000, intervalMs: 300, what: 'the leader to write the ticker 5 times' });
    expect(standby.isLeader()).toBe(false);

    // The API server may stop answering before it exits: the leader's last renewal is whatever
    // the Lease said last with it as holder.
    const renewals = new LastRenewalBy(lease, 'cut-off');
    renewals.start(200);
    await stopApiServer();
    const lost = await leaderRun.started;
    expect(lost).toBeInstanceOf(LeaderElectionLostError);
    const takenOver = await waitFor(async () => {
      const current = await lease();
      return current.spec?.holderIdentity === 'standby' ? current : undefined;
    }, { timeoutMs: 30_000, intervalMs: 300, what: 'the standby to take the Lease' });
    await renewals.stop();
    const last = renewals.last!;
    expect(renewals.samples).toBeGreaterThan(5);
    expect(last.spec?.holderIdentity).toBe('cut-off');
    const fenceShutAtMs = Date.parse(last.spec!.renewTime!) + renewDeadlineMs;
    await viaPeer.patch({ namespace, name: 'ticker' }, { spec: { value: 2 } }, { type: 'merge' });
    await viaPeer.create({ metadata: { name: 'after', namespace }, spec: { value: 3 } });
    await startApiServer();

    await observed(viaPeer, namespace, 'ticker', 2);
    await observed(viaPeer, namespace, 'after', 3);
    // The hand-over as the Lease records it: one transition, no sooner than the lease duration
    // after the cut-off leader's last renewal.
    expect(takenOver.spec?.leaseTransitions).toBe((last.spec?.leaseTransitions ?? 0) + 1);
    expect(Date.parse(takenOver.spec!.acquireTime!)).toBeGreaterThanOrEqual(Date.parse(last.spec!.renewTime!) + leaseDurationMs);
    // The leader kept writing (the ticker) until its fence shut, and sent nothing after it.
    console.log(`apiserver-restart: the cut-off leader sent ${toyWrites().length} ticker writes; its fence refused ${leaderSeen.refused} writes after it shut`);
    expect(recorded.writes.filter(({ atMs }) => atMs > fenceShutAtMs)
      .map(({ atMs, request }) => `${request.method} ${request.path} ${atMs - fenceShutAtMs} ms after the fence shut`)).toEqual([]);
    expect(leaderSeen.refused).toBeGreaterThan(0);
    expect(standbySeen.reconciled).toEqual(expect.arrayContaining([`${namespace}/ticker`, `${namespace}/after`]));
  });
});
