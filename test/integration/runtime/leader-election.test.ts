import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '../../support/wait-for.ts';
import { LeaderElectionLostError, LeaderElector, LeaseResource, createResourceClient, keyOf } from '../../../operator/runtime/index.ts';
import type { KubeClient, KubeRequest, KubeTransport, Lease, Manager, RawWatchEvent, WatchRequest } from '../../../operator/runtime/index.ts';
import { Toy, createNamespace, installToyCrd, stackTransport, testLogger, testManager } from './toy-cluster.ts';
import type { ToyObject } from './toy-cluster.ts';

// The integration project's testTimeout is not applied per project by jest 30; set it here.
jest.setTimeout(180_000);

/** A transport whose link to the API server can be cut, as a network partition would. */
class PartitionableTransport implements KubeTransport {
  readonly #inner: KubeTransport;
  #cut = new AbortController();
  partitioned = false;

  constructor(inner: KubeTransport) {
    this.#inner = inner;
  }

  partition(): void {
    this.partitioned = true;
    this.#cut.abort();
  }

  request<T>(request: KubeRequest): Promise<T> {
    if (this.partitioned) return Promise.reject(new Error('network partition'));
    return this.#inner.request<T>(request);
  }

  async watch(request: WatchRequest, onEvent: (event: RawWatchEvent) => void): Promise<void> {
    if (this.partitioned) throw new Error('network partition');
    await this.#inner.watch({ ...request, signal: AbortSignal.any([request.signal, this.#cut.signal]) }, onEvent);
    if (this.partitioned && !request.signal.aborted) throw new Error('network partition');
  }
}

/** Fast timings, still respecting retry < renewDeadline < leaseDuration. */
const electionFlags = (namespace: string, id: string) => [
  '--leader-elect',
  `--leader-election-id=${id}`,
  `--leader-election-namespace=${namespace}`,
  '--leader-elect-lease-duration=4s',
  '--leader-elect-renew-deadline=3s',
  '--leader-elect-retry-period=500ms',
];

interface Replica {
  manager: Manager;
  stop: AbortController;
  running: Promise<unknown>;
  transport: PartitionableTransport;
  /** Keys its Toy controller reconciled. */
  reconciled: string[];
}

function startReplica(base: KubeClient, namespace: string, leaseId: string, identity: string): Replica {
  const transport = new PartitionableTransport(base);
  const manager = testManager({ transport, identity, argv: [...electionFlags(namespace, leaseId), `--watch-namespace=${namespace}`] });
  const reconciled: string[] = [];
  manager
    .controller('toy')
    .for(Toy)
    .complete(async (request) => {
      reconciled.push(keyOf(request));
    });
  const stop = new AbortController();
  const running = manager.start(stop.signal).catch((error: unknown) => error);
  return { manager, stop, running, transport, reconciled };
}

/** Samples leadership until `until` resolves; fails if two replicas ever lead at once. */
async function watchForDoubleLeaders(replicas: Replica[], until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.finally(() => (done = true));
  let samples = 0;
  while (!done) {
    const leaders = replicas.filter((r) => r.manager.isLeader()).map((r) => r.manager.identity);
    expect(leaders.length).toBeLessThanOrEqual(1);
    samples++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return samples;
}

describe('leader election on a coordination.k8s.io/v1 Lease', () => {
  let base: KubeClient;
  let namespace: string;

  beforeAll(async () => {
    ({ transport: base } = stackTransport());
    await installToyCrd(base);
    namespace = await createNamespace(base, 'rt-leader');
    await createResourceClient<ToyObject>(base, Toy).create({ metadata: { name: 'led', namespace }, spec: { value: 1 } });
  });

  const lease = (id: string) => createResourceClient<Lease>(base, LeaseResource).get({ namespace, name: id });
  const reconciledLed = (replica: Replica) => async () => (replica.reconciled.includes(`${namespace}/led`) ? true : undefined);

  it('lets one of two managers lead, and moves leadership (and the controllers) when the leader stops', async () => {
    const id = `toy-${randomUUID().slice(0, 6)}`;
    const a = startReplica(base, namespace, id, 'replica-a');
    await waitFor(async () => (a.manager.isLeader() ? true : undefined), { timeoutMs: 20_000, what: 'replica-a to lead' });
    await waitFor(reconciledLed(a), { timeoutMs: 10_000, what: 'the leader to reconcile' });
    const b = startReplica(base, namespace, id, 'replica-b');

    const scenario = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(b.manager.isLeader()).toBe(false);
      expect(b.reconciled).toEqual([]); // a standby runs no controller
      const held = await lease(id);
      expect(held.spec?.holderIdentity).toBe('replica-a');
      expect(held.spec?.renewTime).toMatch(/\.\d{6}Z$/);
      a.stop.abort();
      expect(await a.running).toBeUndefined();
      const stoppedAt = Date.now();
      await waitFor(async () => (b.manager.isLeader() ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, what: 'replica-b to take over' });
      // The stopped leader released the Lease: the standby did not wait out the 4 s lease duration.
      expect(Date.now() - stoppedAt).toBeLessThan(3_000);
    })();
    const samples = await watchForDoubleLeaders([a, b], scenario);
    await scenario;
    expect(samples).toBeGreaterThan(50);
    await waitFor(reconciledLed(b), { timeoutMs: 10_000, what: 'the new leader to reconcile' });
    const taken = await lease(id);
    expect(taken.spec).toMatchObject({ holderIdentity: 'replica-b', leaseDurationSeconds: 4, leaseTransitions: 1 });
    b.stop.abort();
    await b.running;
    expect((await lease(id)).spec?.holderIdentity).toBe('');
  });

  it('never lets two electors lead at once when they race for a fresh Lease', async () => {
    const id = `race-${randomUUID().slice(0, 6)}`;
    const leases = createResourceClient<Lease>(base, LeaseResource);
    const stop = new AbortController();
    const electors = ['x', 'y', 'z'].map(
      (identity) =>
        new LeaderElector({
          leases,
          namespace,
          name: id,
          identity,
          leaseDurationMs: 4_000,
          renewDeadlineMs: 3_000,
          retryPeriodMs: 500,
          logger: testLogger(),
        }),
    );
    // All three try to create the Lease at once; the winner keeps renewing.
    const campaigns = electors.map(async (elector) => {
      if (await elector.acquire(stop.signal)) await elector.renewUntilLost(stop.signal);
    });
    const leaders = () => electors.filter((e) => e.isLeader());
    const winner = await waitFor(async () => leaders()[0], { timeoutMs: 10_000, what: 'one elector to lead' });
    // Past the lease duration: the losers keep seeing a renewed Lease and stay standbys.
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      expect(leaders().map((e) => e.identity)).toEqual([winner.identity]);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await lease(id)).spec).toMatchObject({ holderIdentity: winner.identity, leaseTransitions: 0 });
    for (const loser of electors.filter((e) => e !== winner)) expect(loser.observedLeader).toBe(winner.identity);
    stop.abort();
    await Promise.all(campaigns);
    await winner.release();
    expect((await lease(id)).spec?.holderIdentity).toBe('');
  });

  it('a partitioned leader steps down before a standby takes the lease over', async () => {
    const id = `toy-${randomUUID().slice(0, 6)}`;
    const a = startReplica(base, namespace, id, 'replica-a');
    await waitFor(async () => (a.manager.isLeader() ? true : undefined), { timeoutMs: 20_000, what: 'replica-a to lead' });
    const b = startReplica(base, namespace, id, 'replica-b');

    const scenario = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      a.transport.partition();
      expect(await a.running).toBeInstanceOf(LeaderElectionLostError);
      await waitFor(async () => (b.manager.isLeader() ? true : undefined), { timeoutMs: 15_000, what: 'replica-b to take over' });
    })();
    await watchForDoubleLeaders([a, b], scenario);
    await scenario;
    expect((await lease(id)).spec).toMatchObject({ holderIdentity: 'replica-b', leaseTransitions: 1 });
    b.stop.abort();
    await b.running;
  });
});
