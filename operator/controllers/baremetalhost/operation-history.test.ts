import { describe, expect, it } from '@jest/globals';
import { bareMetalHostStatusSchema } from '../../api/baremetalhost-status.ts';
import { recordOperationEnd, recordOperationStart } from './operation-history.ts';

describe('operation history', () => {
  it('times operations of the four timed states', () => {
    const status = bareMetalHostStatusSchema.parse({});
    recordOperationStart(status, 'provisioning', new Date('2026-05-01T12:00:00Z'));
    expect(status.operationHistory?.provision).toEqual({ start: '2026-05-01T12:00:00Z', end: null });
    // A running operation keeps its start.
    recordOperationStart(status, 'provisioning', new Date('2026-05-01T12:01:00Z'));
    expect(recordOperationEnd(status, 'provisioning', new Date('2026-05-01T12:05:00Z'))).toEqual({ metric: 'operationDuration', operation: 'provision', seconds: 300 });
    expect(status.operationHistory?.provision).toEqual({ start: '2026-05-01T12:00:00Z', end: '2026-05-01T12:05:00Z' });
    expect(recordOperationEnd(status, 'provisioning', new Date('2026-05-01T12:06:00Z'))).toBeUndefined();
  });

  it('ignores untimed states', () => {
    const status = bareMetalHostStatusSchema.parse({});
    recordOperationStart(status, 'available', new Date());
    expect(status.operationHistory).toBeUndefined();
  });
});
