// When to poll Ironic again for a host in a transient state: when the state is expected to have
// ended, from how long it recently took this operator's hosts (measured, not a constant), never
// sooner than IRONIC_POLL_SHORT nor later than IRONIC_POLL_LONG. An earlier end is caught by the
// node sweep, which lists all nodes at least every IRONIC_POLL_SHORT while a host is here (node-sweep.ts);
// a host's own poll is what still looks if that list fails. BMO polls at a fixed 3 s or 10 s
// whatever the state usually takes.
import type { ProvisioningState } from '../../api/provisioning-state.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';

/** States a host leaves by itself once Ironic is done: these are polled; steady states are not. */
export const POLLED_STATES: ReadonlySet<ProvisioningState> = new Set<ProvisioningState>([
  'registering', 'inspecting', 'preparing', 'provisioning', 'deprovisioning', 'powering off before delete', 'deleting',
]);

/** Whether a host, as cached, is in a polled state (it waits on Ironic). */
export function inPolledState(host: KubeObject): boolean {
  const state = (host.status as { provisioning?: { state?: string } } | undefined)?.provisioning?.state;
  return POLLED_STATES.has(state as ProvisioningState);
}

/**
 * Whether a host, as cached, recorded an error: it retries after its backoff (BMO's requeue), in a
 * polled state or at rest alike (a failed soft power off retries hard only then).
 */
export function waitsOutError(host: KubeObject): boolean {
  const status = host.status as { operationalStatus?: string } | undefined;
  return status?.operationalStatus === 'error';
}

export interface PollBounds {
  /** IRONIC_POLL_SHORT: the floor. */
  shortMs: number;
  /** IRONIC_POLL_LONG: the cap. */
  longMs: number;
}

/** Share of the expected time a late host waits before it looks again. */
export const LATE_FRACTION = 0.25;
/** Weight of the newest duration in the moving estimate. */
export const ESTIMATE_WEIGHT = 0.25;

/** A per-state moving estimate (exponentially weighted) of how long hosts spend in a state. */
export class StateDurations {
  readonly #expectedMs = new Map<ProvisioningState, number>();

  observe(state: ProvisioningState, durationMs: number): void {
    if (!Number.isFinite(durationMs) || durationMs < 0) return;
    const previous = this.#expectedMs.get(state);
    this.#expectedMs.set(state, previous === undefined ? durationMs : previous + ESTIMATE_WEIGHT * (durationMs - previous));
  }

  expectedMs(state: ProvisioningState): number | undefined {
    return this.#expectedMs.get(state);
  }
}

/**
 * The next poll: when the state is expected to end, within [short, long]. A host already past
 * the expected time looks again at a fraction of the whole expected time (it is late, but by how
 * much nobody knows). Without an estimate yet, undefined: the provisioner's own hint stands.
 */
export function nextPollMs(options: { expectedMs: number | undefined; elapsedMs: number; bounds: PollBounds }): number | undefined {
  const { expectedMs, elapsedMs, bounds } = options;
  if (expectedMs === undefined) return undefined;
  const remaining = expectedMs - Math.max(0, elapsedMs);
  const wait = remaining > 0 ? remaining : expectedMs * LATE_FRACTION;
  return Math.round(Math.min(bounds.longMs, Math.max(bounds.shortMs, wait)));
}

/**
 * Which state each host is in and since when, as this operator saw it enter; a duration is
 * measured only for a stay seen from its start (not one already under way at start-up).
 */
export class PollSchedule {
  readonly #durations = new StateDurations();
  readonly #stays = new Map<string, { state: ProvisioningState; sinceMs: number; seenEntering: boolean }>();
  readonly #bounds: PollBounds;

  constructor(bounds: PollBounds) {
    if (!(bounds.shortMs > 0) || bounds.longMs < bounds.shortMs) throw new RangeError(`poll bounds must be 0 < short <= long, got ${bounds.shortMs}/${bounds.longMs}`);
    this.#bounds = bounds;
  }

  get durations(): StateDurations {
    return this.#durations;
  }

  /** The host moved from one state to another at `atMs` (a saved transition). */
  entered(key: string, options: { from: ProvisioningState; to: ProvisioningState; atMs: number }): void {
    const stay = this.#stays.get(key);
    if (stay && stay.state === options.from && stay.seenEntering) this.#durations.observe(options.from, options.atMs - stay.sinceMs);
    this.#stays.set(key, { state: options.to, sinceMs: options.atMs, seenEntering: true });
  }

  /** When to poll a host that is in `state` now (undefined: keep the provisioner's hint). */
  pollAfterMs(key: string, options: { state: ProvisioningState; nowMs: number }): number | undefined {
    if (!POLLED_STATES.has(options.state)) return undefined;
    let stay = this.#stays.get(key);
    if (stay?.state !== options.state) {
      stay = { state: options.state, sinceMs: options.nowMs, seenEntering: false };
      this.#stays.set(key, stay);
    }
    return nextPollMs({ expectedMs: this.#durations.expectedMs(options.state), elapsedMs: options.nowMs - stay.sinceMs, bounds: this.#bounds });
  }

  forget(key: string): void {
    this.#stays.delete(key);
  }
}
