import type { Clock } from './clock.ts';
import { systemClock } from './clock.ts';
import type { KubeRequest, KubeTransport, RawWatchEvent, WatchRequest } from './kube-client.ts';

/** A write refused because this replica cannot be sure it still holds the Lease. */
export class NotLeaderError extends Error {
  override name = 'NotLeaderError';
}

/**
 * Whether this replica may write now. A renewal sent at time t keeps the Lease ours until at
 * least t + leaseDuration as any standby counts it; the fence stays open only until
 * t + renewDeadline, which is shorter. A replica frozen past that (a stopped process, a stalled
 * VM) finds the fence shut when it wakes, before its renewal loop has even noticed the loss.
 */
export class LeadershipFence {
  readonly #clock: Clock;
  #openUntilMs = 0;

  constructor(clock: Clock = systemClock) {
    this.#clock = clock;
  }

  /** A renewal (or the acquisition) sent at `sentAtMs` succeeded. */
  renewed(sentAtMs: number, renewDeadlineMs: number): void {
    this.#openUntilMs = Math.max(this.#openUntilMs, sentAtMs + renewDeadlineMs);
  }

  /** Leadership ended (lost or released): no write from now on. */
  close(): void {
    this.#openUntilMs = 0;
  }

  allowsWrites(): boolean {
    return this.#clock.now() < this.#openUntilMs;
  }
}

/** The transport a leader-elected manager's controllers and event recorders write through. */
export function fencedTransport(inner: KubeTransport, fence: LeadershipFence): KubeTransport {
  return {
    request<T>(request: KubeRequest): Promise<T> {
      if (request.method !== 'GET' && !fence.allowsWrites()) {
        return Promise.reject(new NotLeaderError(`not the leader: ${request.method} ${request.path} refused`));
      }
      return inner.request<T>(request);
    },
    watch(request: WatchRequest, onEvent: (event: RawWatchEvent) => void): Promise<void> {
      return inner.watch(request, onEvent);
    },
  };
}
