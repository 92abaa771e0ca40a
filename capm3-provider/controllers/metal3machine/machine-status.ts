import type { Clock, Condition, ConditionInput } from '../../../operator/runtime/index.ts';
import { deepEqual, formatTime, setCondition } from '../../../operator/runtime/index.ts';
import type { Metal3Machine, Metal3MachineStatus } from '../../api/index.ts';

/** Conditions (v1beta2 names) the Ready summary is made of, in the order a user should fix them. */
export const READY_INPUTS = ['Paused', 'AssociateBareMetalHost', 'HostProvisioned'] as const;

/**
 * The status a reconcile builds up; written once, as one merge patch, only when it differs
 * from what was read.
 */
export class MachineStatus {
  readonly #before: Metal3MachineStatus;
  readonly #clock: Clock;
  readonly #generation: number | undefined;
  next: Metal3MachineStatus;

  constructor(machine: Metal3Machine, clock: Clock) {
    this.#before = machine.status ?? {};
    this.next = structuredClone(this.#before);
    this.#clock = clock;
    this.#generation = machine.metadata.generation;
  }

  condition(input: Omit<ConditionInput, 'observedGeneration'>): void {
    const now = new Date(this.#clock.now());
    this.next.conditions = setCondition(this.next.conditions as Condition[] | undefined, {
      ...input, ...(this.#generation !== undefined ? { observedGeneration: this.#generation } : {}),
    }, { now });
  }

  /** Ready: True once provisioned, else False with the reason of the first blocking condition. */
  summarize(): void {
    const conditions = (this.next.conditions ?? []) as Condition[];
    if (this.next.initialization?.provisioned) {
      this.condition({ type: 'Ready', status: 'True', reason: 'Ready', message: '' });
      return;
    }
    const paused = conditions.find((c) => c.type === 'Paused' && c.status === 'True');
    const blocking = paused ?? conditions.find((c) => (READY_INPUTS as readonly string[]).includes(c.type) && c.type !== 'Paused' && c.status !== 'True');
    this.condition({
      type: 'Ready', status: 'False',
      reason: blocking?.reason ?? 'NotReady',
      message: blocking?.message ?? 'waiting for the host to be provisioned',
    });
  }

  /** The merge patch body for /status, or undefined when nothing changed. */
  patch(): Metal3MachineStatus | undefined {
    if (deepEqual(this.#before, this.next)) return undefined;
    return { ...this.next, lastUpdated: formatTime(new Date(this.#clock.now())) };
  }
}
