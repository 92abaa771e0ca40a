import { describe, it, expect } from '@jest/globals';
import { LeaderElector } from './leader-election.ts';
import type { Lease } from './leader-election.ts';
import { createResourceClient } from './resource-client.ts';
import { LeaseResource } from './resources.ts';
import { FakeApiServer } from './testing/fake-api-server.ts';
import { FakeClock, flushPromises } from './testing/fake-clock.ts';

const MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function setup() {
  const api = new FakeApiServer();
  const clock = new FakeClock();
  const leases = createResourceClient<Lease>(api, LeaseResource);
  const elector = (identity: string, extra: { onLeadingChange?: (leading: boolean) => void } = {}) =>
    new LeaderElector({
      leases,
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
  const lease = async () => leases.get({ namespace: 'ops', name: 'toy-leader' });
  return { api, clock, leases, elector, lease };
}

describe('LeaderElector', () => {
  it('creates the lease when there is none, with MicroTime times', async () => {
    const { elector, lease } = setup();
    const changes: boolean[] = [];
    const a = elector('a', { onLeadingChange: (l) => changes.push(l) });
    expect(await a.acquire(new AbortController().signal)).toBe(true);
    expect(a.isLeader()).toBe(true);
    expect(changes).toEqual([true]);
    const spec = (await lease()).spec;
    expect(spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0 });
    expect(spec?.acquireTime).toMatch(MICRO);
    expect(spec?.renewTime).toMatch(MICRO);
  });

  it('renews every retry period, keeping acquireTime, while a standby waits', async () => {
    const { clock, elector, lease } = setup();
    const a = elector('a');
    const b = elector('b');
    const stopA = new AbortController();
    await a.acquire(stopA.signal);
    const acquired = (await lease()).spec?.acquireTime;
    const renewing = a.renewUntilLost(stopA.signal);
    const stopB = new AbortController();
    let bElected = false;
    const campaign = b.acquire(stopB.signal).then((won) => (bElected = won));

    await clock.advance(60_000);
    expect(bElected).toBe(false);
    expect(b.observedLeader).toBe('a');
    const spec = (await lease()).spec;
    expect(spec?.acquireTime).toBe(acquired);
    expect(Date.parse(spec?.renewTime ?? '')).toBeGreaterThan(Date.parse(acquired ?? ''));

    stopA.abort();
    stopB.abort();
    expect(await renewing).toBe('stopped');
    await campaign;
    expect(bElected).toBe(false);
  });

  it('takes over an abandoned lease only after the lease duration has passed since it last changed', async () => {
    const { clock, elector, lease } = setup();
    const a = elector('a');
    await a.acquire(new AbortController().signal); // a then "crashes": no renewals, no release
    const b = elector('b');
    let bElected = false;
    void b.acquire(new AbortController().signal).then((won) => (bElected = won));
    await clock.advance(14_000);
    expect(bElected).toBe(false);
    await clock.advance(4_000);
    expect(bElected).toBe(true);
    expect((await lease()).spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('hands over within a retry period when the leader releases on shutdown', async () => {
    const { clock, elector, lease } = setup();
    const a = elector('a');
    const stopA = new AbortController();
    await a.acquire(stopA.signal);
    const renewing = a.renewUntilLost(stopA.signal);
    const b = elector('b');
    let bElected = false;
    void b.acquire(new AbortController().signal).then((won) => (bElected = won));
    await clock.advance(5_000);
    stopA.abort();
    await renewing;
    await a.release();
    expect(a.isLeader()).toBe(false);
    expect((await lease()).spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    await clock.advance(2_000);
    expect(bElected).toBe(true);
    expect((await lease()).spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('gives up leadership when renewals fail for the renew deadline', async () => {
    const { api, clock, elector } = setup();
    const a = elector('a');
    const stop = new AbortController();
    await a.acquire(stop.signal);
    let outcome: string | undefined;
    void a.renewUntilLost(stop.signal).then((o) => (outcome = o));
    await clock.advance(4_000);
    api.intercept = () => {
      throw new Error('apiserver unreachable');
    };
    await clock.advance(8_000);
    expect(outcome).toBeUndefined();
    expect(a.isLeader()).toBe(true);
    await clock.advance(2_000);
    await flushPromises();
    expect(outcome).toBe('lost');
    expect(a.isLeader()).toBe(false);
  });

  it('never lets two candidates lead at once when they race for a fresh lease', async () => {
    const { elector } = setup();
    const candidates = ['a', 'b', 'c'].map((id) => elector(id));
    const signal = new AbortController().signal;
    const firstRound = await Promise.all(candidates.map((c) => Promise.race([c.acquire(signal), flushPromises().then(() => false)])));
    expect(firstRound.filter(Boolean)).toHaveLength(1);
    expect(candidates.filter((c) => c.isLeader())).toHaveLength(1);
  });

  it('rejects timings that could let two leaders overlap', () => {
    const { leases } = setup();
    const base = { leases, namespace: 'ops', name: 'x', identity: 'a' };
    expect(() => new LeaderElector({ ...base, leaseDurationMs: 10_000, renewDeadlineMs: 10_000 })).toThrow(/renewDeadline/);
    expect(() => new LeaderElector({ ...base, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 })).toThrow(/retryPeriod/);
  });
});
