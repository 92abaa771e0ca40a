import { describe, expect, it } from '@jest/globals';
import { nextDeletionDeadlineInMs } from './deletion-budget.ts';
import { wakeByDeadline } from './requeue.ts';
import { ScriptedProvisioner } from './testing/scripted-provisioner.ts';
import { contextFor, hostFor } from './testing/hosts.ts';

const minutes = (n: number) => n * 60_000;
// The test context's clock reads 12:00 and its deletion timeout is an hour.
const deletedAt = (deletionTimestamp: string) => hostFor({ metadata: { deletionTimestamp } });

describe('the next deletion deadline', () => {
  const context = contextFor(new ScriptedProvisioner());

  it('is the timeout, then twice the timeout, then none', () => {
    expect(nextDeletionDeadlineInMs(deletedAt('2026-05-01T11:50:00Z'), context)).toBe(minutes(50));
    expect(nextDeletionDeadlineInMs(deletedAt('2026-05-01T10:30:00Z'), context)).toBe(minutes(30));
    expect(nextDeletionDeadlineInMs(deletedAt('2026-05-01T09:00:00Z'), context)).toBeUndefined();
  });

  it('is none for a host not being deleted, or without a timeout', () => {
    expect(nextDeletionDeadlineInMs(hostFor({}), context)).toBeUndefined();
    const noTimeout = contextFor(new ScriptedProvisioner(), { settings: { maxProvisioningRetries: 5, deletionTimeoutMs: 0 } });
    expect(nextDeletionDeadlineInMs(deletedAt('2026-05-01T11:50:00Z'), noTimeout)).toBeUndefined();
  });

  it('cuts a longer wait short, to just after the deadline, and leaves shorter ones and immediate requeues alone', () => {
    expect(wakeByDeadline({ requeueAfter: minutes(3) }, minutes(1))).toEqual({ requeueAfter: minutes(1) + 1_000 });
    expect(wakeByDeadline({ requeueAfter: 5_000 }, minutes(1))).toEqual({ requeueAfter: 5_000 });
    expect(wakeByDeadline({ requeueNow: true }, minutes(1))).toEqual({ requeueNow: true });
    expect(wakeByDeadline({ requeueAfter: minutes(3) }, undefined)).toEqual({ requeueAfter: minutes(3) });
  });
});
