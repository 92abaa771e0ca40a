import type { z } from 'zod';
import { formatTime } from '../../operator/runtime/index.ts';
import type { v1beta1ConditionSchema } from '../api/common.ts';

export type V1beta1Condition = z.output<typeof v1beta1ConditionSchema>;
export type V1beta1Severity = 'Error' | 'Warning' | 'Info';

export type V1beta1ConditionInput =
  | { type: string; status: 'True' }
  | { type: string; status: 'False'; reason: string; severity: V1beta1Severity; message?: string };

/**
 * Cluster API's v1beta1 `conditions.Set`: a condition whose status, reason, severity and message
 * are unchanged keeps its transition time; the list is Ready first, then by type.
 */
export function setV1beta1Condition(list: V1beta1Condition[] | undefined, input: V1beta1ConditionInput, now: Date): V1beta1Condition[] {
  const next: V1beta1Condition = input.status === 'True'
    ? { type: input.type, status: 'True', lastTransitionTime: formatTime(now) }
    : { type: input.type, status: 'False', severity: input.severity, reason: input.reason, ...(input.message ? { message: input.message } : {}), lastTransitionTime: formatTime(now) };
  const previous = list?.find((condition) => condition.type === input.type);
  const same = previous && previous.status === next.status && (previous.reason ?? '') === (next.reason ?? '')
    && (previous.severity ?? '') === (next.severity ?? '') && (previous.message ?? '') === (next.message ?? '');
  if (same) next.lastTransitionTime = previous.lastTransitionTime;
  const rest = (list ?? []).filter((condition) => condition.type !== input.type);
  return [...rest, next].sort((a, b) => (a.type === 'Ready' ? -1 : b.type === 'Ready' ? 1 : a.type.localeCompare(b.type)));
}

const SEVERITY_ORDER: readonly string[] = ['Error', 'Warning', 'Info', ''];

/**
 * Cluster API's v1beta1 `conditions.SetSummary` with `WithConditions(types...)`: Ready is True when
 * every one of them present is; else False with the reason, severity and message of the most
 * severe False one, the first in `types` among equals. None present: Ready is left as it is.
 */
export function setV1beta1Summary(list: V1beta1Condition[] | undefined, types: readonly string[], now: Date): V1beta1Condition[] | undefined {
  const inScope = (list ?? []).filter((condition) => types.includes(condition.type));
  if (inScope.length === 0) return list;
  const rank = (condition: V1beta1Condition) => SEVERITY_ORDER.indexOf(condition.severity ?? '') * types.length + types.indexOf(condition.type);
  const top = inScope.filter((condition) => condition.status === 'False').sort((a, b) => rank(a) - rank(b))[0];
  if (!top) return setV1beta1Condition(list, { type: 'Ready', status: 'True' }, now);
  return setV1beta1Condition(list, {
    type: 'Ready', status: 'False', reason: top.reason ?? '', severity: (top.severity ?? 'Info') as V1beta1Severity, message: top.message ?? '',
  }, now);
}
