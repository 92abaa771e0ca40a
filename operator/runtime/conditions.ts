import { z } from 'zod';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** `metav1.Condition`. */
export interface Condition {
  type: string;
  status: ConditionStatus;
  observedGeneration?: number;
  /** RFC 3339; changes only when `status` changes. */
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** What a caller provides; `lastTransitionTime` is filled in when the status changes. */
export type ConditionInput = Omit<Condition, 'lastTransitionTime' | 'message'> & {
  message?: string;
  lastTransitionTime?: string;
};

const REASON = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;

/** The API server's validation of `metav1.Condition`, for CRD schemas and tests. */
export const ConditionSchema = z.object({
  type: z
    .string()
    .max(316)
    .regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/),
  status: z.enum(['True', 'False', 'Unknown']),
  observedGeneration: z.number().int().min(0).optional(),
  lastTransitionTime: z.string(),
  reason: z.string().min(1).max(1024).regex(REASON),
  message: z.string().max(32768),
});

export function isValidConditionReason(reason: string): boolean {
  return reason.length >= 1 && reason.length <= 1024 && REASON.test(reason);
}

/** Seconds precision, as `metav1.Time` serialises. */
export function formatTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}

export function isConditionFalse(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'False';
}

/**
 * `meta.SetStatusCondition`: adds or updates the condition of `input.type`.
 * `lastTransitionTime` changes only when the status changes; reason, message and
 * observedGeneration always follow the input. Returns the same array when nothing
 * changed, so callers can skip a status write.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  input: ConditionInput,
  options: { now?: Date } = {},
): Condition[] {
  const list = conditions ?? [];
  const now = input.lastTransitionTime ?? formatTime(options.now ?? new Date());
  const index = list.findIndex((c) => c.type === input.type);
  const existing = list[index];
  if (!existing) {
    return [...list, normalise({ ...input, lastTransitionTime: now })];
  }
  const next = normalise({
    ...input,
    lastTransitionTime: existing.status === input.status ? existing.lastTransitionTime : now,
    observedGeneration: input.observedGeneration ?? existing.observedGeneration,
  });
  if (sameCondition(existing, next)) return list as Condition[];
  return list.map((c, i) => (i === index ? next : c));
}

/** Removes the condition of `type`; returns the same array when there was none. */
export function removeCondition(conditions: readonly Condition[] | undefined, type: string): Condition[] {
  const list = (conditions ?? []) as Condition[];
  return list.some((c) => c.type === type) ? list.filter((c) => c.type !== type) : list;
}

function normalise(input: ConditionInput & { lastTransitionTime: string }): Condition {
  const condition: Condition = {
    type: input.type,
    status: input.status,
    lastTransitionTime: input.lastTransitionTime,
    reason: input.reason,
    message: input.message ?? '',
  };
  if (input.observedGeneration !== undefined) condition.observedGeneration = input.observedGeneration;
  return condition;
}

function sameCondition(a: Condition, b: Condition): boolean {
  return (
    a.status === b.status &&
    a.reason === b.reason &&
    a.message === b.message &&
    a.observedGeneration === b.observedGeneration &&
    a.lastTransitionTime === b.lastTransitionTime
  );
}
