import { describe, expect, it } from '@jest/globals';
import { ownerRemediatedFalse } from './owner-remediated.ts';

describe('ownerRemediatedFalse', () => {
  it('sets OwnerRemediated False in both condition lists and keeps the others', () => {
    const now = new Date('2026-01-01T00:00:10Z');
    const ready = { type: 'Ready', status: 'True' as const, reason: 'Ready', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' };
    const result = ownerRemediatedFalse({ conditions: [ready], v1beta1: [{ type: 'Ready', status: 'True' }] }, { message: 'gave up', now });
    expect(result.conditions).toEqual([ready, {
      type: 'OwnerRemediated', status: 'False', reason: 'WaitingForRemediation', message: 'gave up', lastTransitionTime: '2026-01-01T00:00:10Z',
    }]);
    expect(result.v1beta1).toEqual([{ type: 'Ready', status: 'True' }, {
      type: 'OwnerRemediated', status: 'False', severity: 'Warning', reason: 'WaitingForRemediation', message: 'gave up',
      lastTransitionTime: '2026-01-01T00:00:10Z',
    }]);
  });
});
