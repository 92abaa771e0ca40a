import { describe, expect, it } from '@jest/globals';
import type { KubeRequest, KubeTransport } from './kube-client.ts';
import { LeaderElector } from './leader-election.ts';
import type { Lease } from './leader-election.ts';
import { LeadershipFence, NotLeaderError, fencedTransport } from './leadership-fence.ts';
import { createResourceClient } from './resource-client.ts';
import { LeaseResource } from './resources.ts';
import { FakeClock } from './testing/fake-clock.ts';

/** A transport that answers every request and records what reached it. */
function recordingTransport(answer: (request: KubeRequest) => unknown = (request) => request.body ?? {}) {
  const sent: KubeRequest[] = [];
  const transport: KubeTransport = {
    async request<T>(request: KubeRequest): Promise<T> {
      sent.push(request);
      await Promise.resolve();
      return answer(request) as T;
    },
    watch: async () => {},
  };
  return { transport, sent };
}

const patch: KubeRequest = { method: 'PATCH', path: '/api/v1/namespaces/ns/secrets/s', body: {} };

describe('LeadershipFence', () => {
  it('is shut until a renewal, open until the renew deadline counted from when it was sent, and shut again on close', () => {
    const clock = new FakeClock();
    const fence = new LeadershipFence(clock);
    expect(fence.allowsWrites()).toBe(false);
    fence.renewed(clock.now() - 1_000, 10_000);
    expect(fence.allowsWrites()).toBe(true);
    clock.freezeFor(8_999);
    expect(fence.allowsWrites()).toBe(true);
    clock.freezeFor(1);
    expect(fence.allowsWrites()).toBe(false);
    fence.renewed(clock.now(), 10_000);
    fence.close();
    expect(fence.allowsWrites()).toBe(false);
  });

  it('lets reads and watches through a shut fence, and refuses writes before they leave the process', async () => {
    const { transport, sent } = recordingTransport();
    const fenced = fencedTransport(transport, new LeadershipFence(new FakeClock()));
    await fenced.request({ method: 'GET', path: '/api/v1/namespaces/ns/secrets/s' });
    await expect(fenced.watch({ path: '/api/v1/secrets', signal: new AbortController().signal }, () => {})).resolves.toBeUndefined();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      await expect(fenced.request({ ...patch, method })).rejects.toThrow(NotLeaderError);
    }
    await expect(fenced.request(patch)).rejects.toThrow(`not the leader: PATCH ${patch.path} refused`);
    expect(sent.map((request) => request.method)).toEqual(['GET']);
  });

  it('shuts for a leader frozen past its renew deadline, before its renewal loop wakes to notice', async () => {
    const clock = new FakeClock();
    const fence = new LeadershipFence(clock);
    const leases = recordingTransport((request) => (request.method === 'GET' ? { metadata: { name: 'l', namespace: 'ops', resourceVersion: '1' }, spec: {} } : request.body));
    const elector = new LeaderElector({
      leases: createResourceClient<Lease>(leases.transport, LeaseResource), namespace: 'ops', name: 'l', identity: 'a',
      leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, clock, fence,
    });
    const controllers = recordingTransport();
    const writes = fencedTransport(controllers.transport, fence);
    const stop = new AbortController();
    expect(await elector.acquire(stop.signal)).toBe(true);
    const renewing = elector.renewUntilLost(stop.signal);
    await clock.advance(5_000);
    await writes.request(patch);
    expect(controllers.sent).toHaveLength(1);

    clock.freezeFor(20_000);
    // Still "leading" as far as the elector knows: no timer has run since the freeze.
    expect(elector.isLeader()).toBe(true);
    await expect(writes.request(patch)).rejects.toThrow(NotLeaderError);
    expect(controllers.sent).toHaveLength(1);
    stop.abort();
    await renewing;
  });

  it('is shut when the elector hands the Lease back, and when it declares it lost', async () => {
    const clock = new FakeClock();
    const fence = new LeadershipFence(clock);
    let failing = false;
    const leases = recordingTransport((request) => {
      if (failing) throw new Error('API server unreachable');
      return request.method === 'GET' ? { metadata: { name: 'l', namespace: 'ops', resourceVersion: '1' }, spec: {} } : request.body;
    });
    const elector = new LeaderElector({
      leases: createResourceClient<Lease>(leases.transport, LeaseResource), namespace: 'ops', name: 'l', identity: 'a',
      leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, clock, fence,
    });
    expect(await elector.acquire(new AbortController().signal)).toBe(true);
    expect(fence.allowsWrites()).toBe(true);
    await elector.release();
    expect(fence.allowsWrites()).toBe(false);

    expect(await elector.acquire(new AbortController().signal)).toBe(true);
    const renewing = elector.renewUntilLost(new AbortController().signal);
    failing = true;
    await clock.advance(12_000);
    expect(await renewing).toBe('lost');
    expect(fence.allowsWrites()).toBe(false);
  });
});
