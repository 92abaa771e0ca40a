import type { Clock, Condition, ConditionInput } from '../../../operator/runtime/index.ts';
import { deepEqual, formatTime, setCondition } from '../../../operator/runtime/index.ts';
import type { Metal3Cluster } from '../../api/index.ts';

type Metal3ClusterStatus = NonNullable<Metal3Cluster['status']>;

/**
 * The status one reconcile builds up; written once, as one merge patch, only when it differs
 * from what was read.
 */
export class ClusterStatus {
  readonly #before: Metal3ClusterStatus;
  readonly #clock: Clock;
  /** The spec generation the conditions describe; moves on when the reconcile itself defaults the spec. */
  generation: number | undefined;
  next: Metal3ClusterStatus;

  constructor(metal3Cluster: Metal3Cluster, clock: Clock) {
    this.#before = metal3Cluster.status ?? {};
    this.next = structuredClone(this.#before);
    this.#clock = clock;
    this.generation = metal3Cluster.metadata.generation;
  }

  condition(input: Omit<ConditionInput, 'observedGeneration'>): void {
    this.next.conditions = setCondition(this.next.conditions as Condition[] | undefined, {
      ...input, ...(this.generation !== undefined ? { observedGeneration: this.generation } : {}),
    }, { now: new Date(this.#clock.now()) });
  }

  /** The v1beta1 contract's terminal failure fields, kept for tools that still read them. */
  failure(failure: { reason: string; message: string } | undefined): void {
    const v1beta1 = { ...this.next.deprecated?.v1beta1 };
    if (failure) {
      v1beta1.failureReason = failure.reason;
      v1beta1.failureMessage = failure.message;
    } else {
      delete v1beta1.failureReason;
      delete v1beta1.failureMessage;
    }
    if (Object.keys(v1beta1).length) this.next.deprecated = { ...this.next.deprecated, v1beta1 };
    else delete this.next.deprecated;
  }

  /** The merge patch body for /status, or undefined when nothing changed. */
  patch(): Record<string, unknown> | undefined {
    if (deepEqual(this.#before, this.next)) return undefined;
    return { ...statusMergePatch(this.#before, this.next), lastUpdated: formatTime(new Date(this.#clock.now())) };
  }
}

/**
 * `next` as a merge patch over `before`: a field `next` dropped becomes null, or the API
 * server would keep it (a stale failureReason after the endpoint was fixed). Arrays are
 * replaced whole, as merge patches do.
 */
export function statusMergePatch(before: object, next: object): Record<string, unknown> {
  const patch: Record<string, unknown> = { ...next };
  for (const [key, old] of Object.entries(before)) {
    const value = (next as Record<string, unknown>)[key];
    if (value === undefined) patch[key] = null;
    else if (isPlainObject(old) && isPlainObject(value)) patch[key] = statusMergePatch(old, value);
  }
  return patch;
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
