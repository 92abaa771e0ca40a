import { describe, it, expect } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import type { KubeRequest, KubeTransport } from './kube-client.ts';
import { LeaderElector } from './leader-election.ts';
import type { Lease, LeaseSpec } from './leader-election.ts';
import { formatMicroTime } from './micro-time.ts';
import { createResourceClient } from './resource-client.ts';
import { LeaseResource } from './resources.ts';
import { FakeClock, flushPromises } from './testing/fake-clock.ts';

// Electors racing on a real Lease, and managers handing it over, are tested against a
// real API server in test/integration/runtime/leader-election.test.ts.

const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/ops/leases/toy-leader';
const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (offsetMs: number): string => formatMicroTime(T0 + offsetMs);

const statusError = (code: number, reason: string) =>
  new ApiException(code, 'failed', JSON.stringify({ kind: 'Status', code, reason, message: reason }), {});

const leaseHeldBy = (holderIdentity: string, spec: LeaseSpec = {}): Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'toy-leader', namespace: 'ops', resourceVersion: '5' },
  spec: { holderIdentity, leaseDurationSeconds: 15, acquireTime: at(-60_000), renewTime: at(-1_000), leaseTransitions: 3, ...spec },
});

/**
 * Electors on a transport that records their requests and answers from two scripts the
 * test sets: `answers.get` for reads of the Lease, `answers.write` for creates and
 * replaces (by default it hands back the Lease it was sent).
 */
function setup() {
  const clock = new FakeClock(T0);
  const requests: Array<KubeRequest & { identity: string }> = [];
  const answers = {
    get: (_request: KubeRequest): Lease | Promise<Lease> => {
      throw statusError(404, 'NotFound');
    },
    write: (request: KubeRequest): Lease => request.body as Lease,
  };
  const elector = (identity: string, extra: Partial<ConstructorParameters<typeof LeaderElector>[0]> = {}) => {
    const transport: KubeTransport = {
      async request<T>(request: KubeRequest): Promise<T> {
        requests.push({ ...request, identity });
        await Promise.resolve();
        return (request.method === 'GET' ? answers.get(request) : answers.write(request)) as T;
      },
      watch: () => Promise.reject(new Error('not used')),
    };
    return new LeaderElector({
      leases: createResourceClient<Lease>(transport, LeaseResource),
      namespace: 'ops',
      name: 'toy-leader',
      identity,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      clock,
      random: () => 0.5,
      ...extra,
    });
  };
  const writes = (identity?: string) =>
    requests.filter((r) => r.method !== 'GET' && (identity === undefined || r.identity === identity)).map((r) => r.body as Lease);
  return { clock, answers, requests, elector, writes };
}

describe('LeaderElector', () => {
  it('creates the lease when there is none, with MicroTime times', async () => {
    const { elector, requests, writes } = setup();
    const changes: boolean[] = [];
    const leaders: string[] = [];
    const a = elector('a', { onLeadingChange: (l) => changes.push(l), onNewLeader: (l) => leaders.push(l) });
    expect(await a.acquire(new AbortController().signal)).toBe(true);
    expect(a.isLeader()).toBe(true);
    expect(changes).toEqual([true]);
    expect(leaders).toEqual(['a']);
    expect(requests.map((r) => [r.method, r.path])).toEqual([
      ['GET', LEASE_PATH],
      ['POST', '/apis/coordination.k8s.io/v1/namespaces/ops/leases'],
    ]);
    expect(writes()).toEqual([
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { namespace: 'ops', name: 'toy-leader' },
        spec: { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: at(0), renewTime: at(0), leaseTransitions: 0 },
      },
    ]);
  });

  it('renews every retry period with a conditional replace, keeping acquireTime and the transition count', async () => {
    const { clock, answers, elector, writes, requests } = setup();
    answers.get = () => leaseHeldBy('a');
    const a = elector('a');
    const stop = new AbortController();
    expect(await a.acquire(stop.signal)).toBe(true);
    const renewing = a.renewUntilLost(stop.signal);
    await clock.advance(10_000);
    expect(writes().map((l) => l.spec?.renewTime)).toEqual([at(0), at(2_000), at(4_000), at(6_000), at(8_000), at(10_000)]);
    for (const lease of writes()) {
      expect(lease.metadata.resourceVersion).toBe('5');
      expect(lease.spec).toMatchObject({ holderIdentity: 'a', acquireTime: at(-60_000), leaseTransitions: 3, leaseDurationSeconds: 15 });
    }
    expect(requests.filter((r) => r.method === 'PUT').every((r) => r.path === LEASE_PATH)).toBe(true);
    stop.abort();
    expect(await renewing).toBe('stopped');
    expect(a.isLeader()).toBe(true); // stopping keeps the lease until release()
    expect(writes()).toHaveLength(6);
  });

  it('waits as a standby, writing nothing, while the holder keeps renewing', async () => {
    const { clock, answers, elector, writes } = setup();
    answers.get = () => leaseHeldBy('a', { renewTime: formatMicroTime(clock.now()) });
    const leaders: string[] = [];
    const b = elector('b', { onNewLeader: (l) => leaders.push(l) });
    const stop = new AbortController();
    const campaign = b.acquire(stop.signal);
    await clock.advance(60_000);
    expect(b.isLeader()).toBe(false);
    expect(b.observedLeader).toBe('a');
    expect(leaders).toEqual(['a']);
    expect(writes()).toEqual([]);
    stop.abort();
    expect(await campaign).toBe(false);
  });

  it('takes over an abandoned lease only a lease duration after it saw the record last change, whatever its renewTime says', async () => {
    const { clock, answers, elector, writes } = setup();
    // Written by a replica whose clock runs an hour behind: it must not look expired.
    answers.get = () => leaseHeldBy('a', { renewTime: at(-3_600_000) });
    const b = elector('b');
    let bElected = false;
    void b.acquire(new AbortController().signal).then((won) => (bElected = won));
    await clock.advance(14_000);
    expect(bElected).toBe(false);
    expect(writes()).toEqual([]);
    await clock.advance(2_000); // the first retry after 15 s
    expect(bElected).toBe(true);
    expect(writes()).toEqual([
      {
        ...leaseHeldBy('a'),
        spec: { holderIdentity: 'b', leaseDurationSeconds: 15, acquireTime: at(16_000), renewTime: at(16_000), leaseTransitions: 4 },
      },
    ]);
  });

  it('respects the lease duration the holder wrote, not its own', async () => {
    const { clock, answers, elector } = setup();
    answers.get = () => leaseHeldBy('a', { leaseDurationSeconds: 30 });
    const b = elector('b');
    let bElected = false;
    void b.acquire(new AbortController().signal).then((won) => (bElected = won));
    await clock.advance(28_000);
    expect(bElected).toBe(false);
    await clock.advance(4_000);
    expect(bElected).toBe(true);
  });

  it('releases on request by clearing the holder with a 1 s duration, once', async () => {
    const { clock, elector, writes } = setup();
    const changes: boolean[] = [];
    const a = elector('a', { onLeadingChange: (l) => changes.push(l) });
    await a.acquire(new AbortController().signal);
    await clock.advance(5_000);
    await a.release();
    expect(a.isLeader()).toBe(false);
    expect(changes).toEqual([true, false]);
    expect(writes().at(-1)?.spec).toEqual({ holderIdentity: '', leaseDurationSeconds: 1, acquireTime: at(5_000), renewTime: at(5_000), leaseTransitions: 0 });
    await a.release();
    expect(writes()).toHaveLength(2);
  });

  it('a standby takes a released lease at its next retry', async () => {
    const { clock, answers, elector, writes } = setup();
    answers.get = () => leaseHeldBy('a', { renewTime: formatMicroTime(clock.now()) });
    const b = elector('b');
    let bElected = false;
    void b.acquire(new AbortController().signal).then((won) => (bElected = won));
    await clock.advance(3_000);
    answers.get = () => leaseHeldBy('', { leaseDurationSeconds: 1 });
    await clock.advance(1_000);
    expect(bElected).toBe(true);
    expect(writes('b').map((l) => l.spec)).toEqual([
      { holderIdentity: 'b', leaseDurationSeconds: 15, acquireTime: at(4_000), renewTime: at(4_000), leaseTransitions: 4 },
    ]);
  });

  it('gives up leadership when renewals fail for the renew deadline', async () => {
    const { clock, answers, elector } = setup();
    answers.get = () => leaseHeldBy('a');
    const changes: boolean[] = [];
    const a = elector('a', { onLeadingChange: (l) => changes.push(l) });
    const stop = new AbortController();
    await a.acquire(stop.signal);
    let outcome: string | undefined;
    void a.renewUntilLost(stop.signal).then((o) => (outcome = o));
    await clock.advance(4_000); // last successful renewal
    answers.get = () => {
      throw new Error('apiserver unreachable');
    };
    await clock.advance(8_000);
    expect(outcome).toBeUndefined();
    expect(a.isLeader()).toBe(true);
    await clock.advance(2_000);
    await flushPromises();
    expect(outcome).toBe('lost');
    expect(a.isLeader()).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it('gives up on a hung Lease request after max(1 s, renewDeadline / 2), so a standby still takes over', async () => {
    const { clock, answers, elector, requests } = setup();
    // The API server never answers the first read; it fails only when its signal aborts.
    answers.get = (request) =>
      new Promise<Lease>((_resolve, reject) => request.signal?.addEventListener('abort', () => reject(request.signal?.reason)));
    const b = elector('b');
    let bElected = false;
    void b.acquire(new AbortController().signal).then((won) => (bElected = won));
    await clock.advance(4_999);
    expect(requests.map((r) => r.method)).toEqual(['GET']);
    answers.get = () => leaseHeldBy('', { leaseDurationSeconds: 1 });
    await clock.advance(1); // the read times out at 5 s; the next attempt comes a retry period later
    expect(bElected).toBe(false);
    await clock.advance(2_000);
    expect(requests.map((r) => r.method)).toEqual(['GET', 'GET', 'PUT']);
    expect(bElected).toBe(true);
  });

  it('does not lead when another candidate wins the create or the replace', async () => {
    const { clock, answers, elector, requests } = setup();
    answers.write = (request) => {
      throw request.method === 'POST' ? statusError(409, 'AlreadyExists') : statusError(409, 'Conflict');
    };
    const a = elector('a');
    let aElected = false;
    void a.acquire(new AbortController().signal).then((won) => (aElected = won));
    await flushPromises();
    expect(requests.map((r) => r.method)).toEqual(['GET', 'POST']);
    expect(a.isLeader()).toBe(false);
    // The lease now looks free (released), but the replace loses too.
    answers.get = () => leaseHeldBy('', { leaseDurationSeconds: 1 });
    await clock.advance(2_000);
    expect(requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'PUT']);
    expect(aElected).toBe(false);
    expect(a.isLeader()).toBe(false);
  });

  it('rejects timings that could let two leaders overlap', () => {
    const { elector } = setup();
    expect(() => elector('a', { leaseDurationMs: 10_000, renewDeadlineMs: 10_000 })).toThrow(/renewDeadline/);
    expect(() => elector('a', { renewDeadlineMs: 2_000, retryPeriodMs: 2_000 })).toThrow(/retryPeriod/);
  });
});
