import { jittered } from './backoff.ts';
import type { Clock } from './clock.ts';
import { sleep, systemClock } from './clock.ts';
import { deepEqual } from './deep-equal.ts';
import { isNotFound, toKubeError } from './kube-errors.ts';
import type { KubeObject } from './kube-object.ts';
import type { Logger } from './logger.ts';
import { silentLogger } from './logger.ts';
import type { LeadershipFence } from './leadership-fence.ts';
import { formatMicroTime } from './micro-time.ts';
import { requestDeadline } from './request-deadline.ts';
import type { ResourceClient } from './resource-client.ts';

/** coordination.k8s.io/v1 LeaseSpec; times are MicroTime strings. */
export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

export interface LeaderElectorOptions {
  leases: ResourceClient<Lease>;
  namespace: string;
  name: string;
  /** Unique per replica, e.g. `<pod name>_<uuid>`. */
  identity: string;
  /** How long others wait after the last renewal they saw before taking over (default 15 s). */
  leaseDurationMs?: number;
  /** The leader gives up if it cannot renew for this long (default 10 s); must be < leaseDuration. */
  renewDeadlineMs?: number;
  /** Pause between attempts (default 2 s). */
  retryPeriodMs?: number;
  clock?: Clock;
  random?: () => number;
  logger?: Logger;
  /** Told about every change of leadership state (for the `leader_election_master_status` gauge). */
  onLeadingChange?: (leading: boolean) => void;
  /** Told whenever a different holder is observed. */
  onNewLeader?: (identity: string) => void;
  /** Opened by each successful renewal, closed when leadership ends: what the replica's writes check. */
  fence?: LeadershipFence;
}

/**
 * client-go's lease-based leader election. Expiry is judged by the time *this* replica
 * observed the lease record last change, not by the renewTime written by another
 * replica, so clock skew between nodes does not matter.
 */
export class LeaderElector {
  readonly identity: string;
  readonly #leases: ResourceClient<Lease>;
  readonly #target: { namespace: string; name: string };
  readonly #leaseDurationMs: number;
  readonly #renewDeadlineMs: number;
  readonly #retryPeriodMs: number;
  readonly #requestTimeoutMs: number;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #logger: Logger;
  readonly #onLeadingChange: (leading: boolean) => void;
  readonly #onNewLeader: (identity: string) => void;
  readonly #fence: LeadershipFence | undefined;
  #observed: Lease | undefined;
  #observedAt = 0;
  #leading = false;

  constructor(options: LeaderElectorOptions) {
    this.identity = options.identity;
    this.#leases = options.leases;
    this.#target = { namespace: options.namespace, name: options.name };
    this.#leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.#renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.#retryPeriodMs = options.retryPeriodMs ?? 2_000;
    if (this.#renewDeadlineMs >= this.#leaseDurationMs) throw new Error('renewDeadline must be shorter than leaseDuration');
    if (this.#retryPeriodMs >= this.#renewDeadlineMs) throw new Error('retryPeriod must be shorter than renewDeadline');
    // client-go's lock client times out at max(1 s, renewDeadline / 2): one hung request must neither
    // cost the leader its Lease nor hold up a standby's take-over (the API client's own default is 60 s).
    this.#requestTimeoutMs = Math.max(1_000, this.#renewDeadlineMs / 2);
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#logger = (options.logger ?? silentLogger()).child({ lease: `${options.namespace}/${options.name}`, identity: options.identity });
    this.#onLeadingChange = options.onLeadingChange ?? (() => {});
    this.#onNewLeader = options.onNewLeader ?? (() => {});
    this.#fence = options.fence;
  }

  isLeader(): boolean {
    return this.#leading;
  }

  /** The holder in the last lease record seen. */
  get observedLeader(): string | undefined {
    return this.#observed?.spec?.holderIdentity || undefined;
  }

  /** Tries every retryPeriod (jittered) until elected (true) or `signal` aborts (false). */
  async acquire(signal: AbortSignal): Promise<boolean> {
    this.#logger.info('attempting to acquire leader lease');
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew(signal)) {
        this.#setLeading(true);
        this.#logger.info('successfully acquired lease');
        return true;
      }
      await sleep(this.#clock, jittered(this.#retryPeriodMs, 0.2, this.#random), signal);
    }
    return false;
  }

  /**
   * Renews every retryPeriod while leading. Resolves `'lost'` as soon as no renewal has
   * succeeded for renewDeadline, or `'stopped'` when `signal` aborts (the lease is kept:
   * call `release` once the work it protects has stopped).
   */
  async renewUntilLost(signal: AbortSignal): Promise<'lost' | 'stopped'> {
    let lastRenewedAt = this.#clock.now();
    while (!signal.aborted) {
      await sleep(this.#clock, this.#retryPeriodMs, signal);
      if (signal.aborted) break;
      const remaining = this.#renewDeadlineMs - (this.#clock.now() - lastRenewedAt);
      const attempt = requestDeadline({ timeoutMs: Math.max(1, remaining), signal, clock: this.#clock });
      const renewed = await this.#tryAcquireOrRenew(attempt.signal).finally(() => attempt.done());
      if (renewed) {
        lastRenewedAt = this.#clock.now();
        continue;
      }
      if (signal.aborted) break;
      if (this.#clock.now() - lastRenewedAt >= this.#renewDeadlineMs) {
        this.#setLeading(false);
        this.#logger.error('failed to renew lease within the renew deadline; leadership lost', {
          renewDeadlineMs: this.#renewDeadlineMs,
        });
        return 'lost';
      }
    }
    return 'stopped';
  }

  /** Hands the lease back (holder cleared, 1 s duration) so a standby takes over at once. */
  async release(): Promise<void> {
    const observed = this.#observed;
    if (!this.#leading || !observed) return;
    this.#setLeading(false);
    const now = formatMicroTime(this.#clock.now());
    const spec: LeaseSpec = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: observed.spec?.leaseTransitions ?? 0,
    };
    try {
      const released = await this.#leaseRequest(undefined, (signal) => this.#leases.replace({ ...observed, spec }, { signal }));
      this.#observe(released);
      this.#logger.info('released leader lease');
    } catch (error) {
      this.#logger.warn('failed to release leader lease', { error: toKubeError(error) });
    }
  }

  async #tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const nowMs = this.#clock.now();
    const now = formatMicroTime(nowMs);
    const leaseDurationSeconds = Math.ceil(this.#leaseDurationMs / 1000);
    let lease: Lease;
    try {
      lease = await this.#leaseRequest(signal, (bounded) => this.#leases.get(this.#target, { signal: bounded }));
    } catch (error) {
      if (!isNotFound(error)) {
        this.#logger.warn('error retrieving lease', { error: toKubeError(error) });
        return false;
      }
      try {
        const created = await this.#leaseRequest(signal, (bounded) => this.#leases.create(
          {
            metadata: { ...this.#target },
            spec: { holderIdentity: this.identity, leaseDurationSeconds, acquireTime: now, renewTime: now, leaseTransitions: 0 },
          },
          { signal: bounded },
        ));
        this.#observe(created);
        this.#fence?.renewed(nowMs, this.#renewDeadlineMs);
        return true;
      } catch (createError) {
        this.#logger.debug('error creating lease', { error: toKubeError(createError) });
        return false;
      }
    }

    this.#observe(lease);
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const validForMs = (spec.leaseDurationSeconds ?? 0) * 1000;
    if (holder && holder !== this.identity && this.#observedAt + validForMs > nowMs) {
      return false;
    }
    const renewing = holder === this.identity;
    try {
      const updated = await this.#leaseRequest(signal, (bounded) => this.#leases.replace(
        {
          ...lease,
          spec: {
            holderIdentity: this.identity,
            leaseDurationSeconds,
            acquireTime: renewing && spec.acquireTime ? spec.acquireTime : now,
            renewTime: now,
            leaseTransitions: renewing ? (spec.leaseTransitions ?? 0) : (spec.leaseTransitions ?? 0) + 1,
          },
        },
        { signal: bounded },
      ));
      this.#observe(updated);
      this.#fence?.renewed(nowMs, this.#renewDeadlineMs);
      return true;
    } catch (error) {
      // Usually a 409: another replica wrote first.
      this.#logger.debug('failed to update lease', { error: toKubeError(error) });
      return false;
    }
  }

  async #leaseRequest<T>(signal: AbortSignal | undefined, send: (bounded: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = requestDeadline({ timeoutMs: this.#requestTimeoutMs, ...(signal ? { signal } : {}), clock: this.#clock });
    try {
      return await send(deadline.signal);
    } finally {
      deadline.done();
    }
  }

  #observe(lease: Lease): void {
    const previousHolder = this.#observed?.spec?.holderIdentity;
    if (!this.#observed || !deepEqual(this.#observed.spec ?? {}, lease.spec ?? {})) {
      this.#observedAt = this.#clock.now();
    }
    this.#observed = lease;
    const holder = lease.spec?.holderIdentity;
    if (holder && holder !== previousHolder) {
      this.#logger.info('new leader observed', { leader: holder });
      this.#onNewLeader(holder);
    }
  }

  #setLeading(leading: boolean): void {
    if (!leading) this.#fence?.close();
    if (this.#leading === leading) return;
    this.#leading = leading;
    this.#onLeadingChange(leading);
  }
}
