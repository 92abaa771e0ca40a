import { describe, it, expect } from '@jest/globals';
import {
  ConditionSchema,
  findCondition,
  isConditionFalse,
  isConditionTrue,
  isValidConditionReason,
  removeCondition,
  setCondition,
} from './conditions.ts';

const t0 = new Date('2026-01-01T00:00:00.123Z');
const t1 = new Date('2026-01-01T01:00:00Z');

describe('conditions', () => {
  it('adds a condition with the current time as lastTransitionTime', () => {
    const list = setCondition(undefined, { type: 'Ready', status: 'False', reason: 'Provisioning', observedGeneration: 2 }, { now: t0 });
    expect(list).toEqual([
      { type: 'Ready', status: 'False', reason: 'Provisioning', message: '', observedGeneration: 2, lastTransitionTime: '2026-01-01T00:00:00Z' },
    ]);
    expect(ConditionSchema.safeParse(list[0]).success).toBe(true);
  });

  it('keeps lastTransitionTime when only reason, message or generation change', () => {
    const first = setCondition([], { type: 'Ready', status: 'False', reason: 'Provisioning' }, { now: t0 });
    const second = setCondition(first, { type: 'Ready', status: 'False', reason: 'Inspecting', message: 'm', observedGeneration: 3 }, { now: t1 });
    expect(findCondition(second, 'Ready')).toMatchObject({
      reason: 'Inspecting',
      message: 'm',
      observedGeneration: 3,
      lastTransitionTime: '2026-01-01T00:00:00Z',
    });
  });

  it('moves lastTransitionTime when the status changes', () => {
    const first = setCondition([], { type: 'Ready', status: 'False', reason: 'Provisioning' }, { now: t0 });
    const second = setCondition(first, { type: 'Ready', status: 'True', reason: 'Provisioned' }, { now: t1 });
    expect(findCondition(second, 'Ready')?.lastTransitionTime).toBe('2026-01-01T01:00:00Z');
    expect(isConditionTrue(second, 'Ready')).toBe(true);
    expect(isConditionFalse(second, 'Ready')).toBe(false);
  });

  it('returns the same array when nothing changed, so callers can skip the write', () => {
    const first = setCondition([], { type: 'Ready', status: 'True', reason: 'Ok', observedGeneration: 1 }, { now: t0 });
    expect(setCondition(first, { type: 'Ready', status: 'True', reason: 'Ok', observedGeneration: 1 }, { now: t1 })).toBe(first);
    expect(setCondition(first, { type: 'Ready', status: 'True', reason: 'Ok' }, { now: t1 })).toBe(first);
  });

  it('leaves other conditions alone and removes by type', () => {
    let list = setCondition([], { type: 'A', status: 'True', reason: 'R' }, { now: t0 });
    list = setCondition(list, { type: 'B', status: 'False', reason: 'R' }, { now: t0 });
    expect(list.map((c) => c.type)).toEqual(['A', 'B']);
    const removed = removeCondition(list, 'A');
    expect(removed.map((c) => c.type)).toEqual(['B']);
    expect(removeCondition(removed, 'A')).toBe(removed);
    expect(findCondition(removed, 'A')).toBeUndefined();
  });

  it('validates reasons like the API server', () => {
    expect(isValidConditionReason('ProvisioningFailed')).toBe(true);
    expect(isValidConditionReason('a:b,c_d')).toBe(true);
    expect(isValidConditionReason('has space')).toBe(false);
    expect(isValidConditionReason('1Leading')).toBe(false);
    expect(isValidConditionReason('')).toBe(false);
  });
});
