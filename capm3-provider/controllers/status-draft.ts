import type { Clock, Condition, ConditionInput } from '../../operator/runtime/index.ts';
import { deepEqual, formatTime, setCondition } from '../../operator/runtime/index.ts';

/** The status fields every provider kind shares. */
export interface DraftableStatus {
  conditions?: Condition[];
  lastUpdated?: string;
}

/**
 * The status one reconcile builds up; written once, as one merge patch, only when it differs
 * from what was read.
 */
export class StatusDraft<S extends DraftableStatus> {
  readonly #before: S;
  readonly #clock: Clock;
  /** The spec generation the conditions describe; moves on when the reconcile itself changes the spec. */
  generation: number | undefined;
  next: S;

  constructor(object: { metadata: { generation?: number }; status?: S }, clock: Clock) {
    this.#before = object.status ?? ({} as S);
    this.next = structuredClone(this.#before);
    this.#clock = clock;
    this.generation = object.metadata.generation;
  }

  condition(input: Omit<ConditionInput, 'observedGeneration'>): void {
    this.next.conditions = setCondition(this.next.conditions, {
      ...input, ...(this.generation !== undefined ? { observedGeneration: this.generation } : {}),
    }, { now: new Date(this.#clock.now()) });
  }

  /** The clock's time, for the transition times a subclass writes. */
  protected now(): number {
    return this.#clock.now();
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
