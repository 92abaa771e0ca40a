import { describe, expect, it } from '@jest/globals';
import { FirmwareRefreshTracker, copiesChangedBy } from './firmware-refreshes.ts';

const node = (provision_state: string, extra: { target?: string; updatedAt?: string; automated_clean?: boolean | null } = {}) => ({
  uuid: 'node-1',
  provision_state,
  target_provision_state: extra.target ?? null,
  provision_updated_at: extra.updatedAt ?? '2026-11-27T04:00:00Z',
  automated_clean: extra.automated_clean ?? null,
});

describe('which operations can change which copy', () => {
  it('verify (manage out of enroll), cleaning and servicing refresh both; inspection the components only', () => {
    expect(copiesChangedBy(node('enroll'), 'manage')).toEqual(['bios', 'firmware']);
    expect(copiesChangedBy(node('available'), 'manage')).toEqual([]);
    expect(copiesChangedBy(node('manageable'), 'inspect')).toEqual(['firmware']);
    expect(copiesChangedBy(node('manageable'), 'clean')).toEqual(['bios', 'firmware']);
    expect(copiesChangedBy(node('active'), 'service')).toEqual(['bios', 'firmware']);
  });

  it('automated cleaning (provide, undeploy, deleted) changes neither: it refreshes both but runs no BIOS or firmware step', () => {
    for (const target of ['provide', 'undeploy', 'deleted']) {
      expect(copiesChangedBy(node('manageable', { automated_clean: true }), target)).toEqual([]);
      expect(copiesChangedBy(node('active', { automated_clean: null }), target)).toEqual([]);
    }
  });

  it('deploying, adoption and aborts refresh nothing', () => {
    for (const target of ['active', 'deploy', 'adopt', 'abort', 'rebuild']) expect(copiesChangedBy(node('available'), target)).toEqual([]);
  });
});

describe('FirmwareRefreshTracker', () => {
  it('counts a refresh when the operation is seen to end, not when it is asked for', () => {
    const tracker = new FirmwareRefreshTracker();
    expect(tracker.refreshes('node-1')).toEqual({});
    tracker.requested(node('manageable'), 'inspect');
    tracker.observed(node('manageable'));
    expect(tracker.refreshes('node-1')).toEqual({ pending: ['firmware'] });
    tracker.observed(node('inspect wait', { target: 'manageable', updatedAt: '2026-11-27T04:00:01Z' }));
    // Under way: the components copy is about to be refreshed.
    expect(tracker.refreshes('node-1')).toEqual({ pending: ['firmware'] });
    tracker.observed(node('manageable', { updatedAt: '2026-11-27T04:00:09Z' }));
    const afterInspection = tracker.refreshes('node-1');
    expect(afterInspection.firmware).toBeDefined();
    expect(afterInspection.bios).toBeUndefined();
    // Reading the node again changes nothing.
    tracker.observed(node('manageable', { updatedAt: '2026-11-27T04:00:09Z' }));
    expect(tracker.refreshes('node-1')).toEqual(afterInspection);
  });

  it('a cleaning that ends where it started (manual cleaning, manageable to manageable) counts once it was seen busy or moved on', () => {
    const tracker = new FirmwareRefreshTracker();
    tracker.requested(node('manageable'), 'clean');
    tracker.observed(node('clean wait', { target: 'manageable', updatedAt: '2026-11-27T04:00:02Z' }));
    tracker.observed(node('manageable', { updatedAt: '2026-11-27T04:00:02Z' }));
    const { bios, firmware } = tracker.refreshes('node-1');
    expect(bios).toBeDefined();
    expect(firmware).toBe(bios);
  });

  it('a failed operation counts too (cleaning refreshes when it starts)', () => {
    const tracker = new FirmwareRefreshTracker();
    tracker.requested(node('manageable'), 'clean');
    tracker.observed(node('clean failed', { target: 'manageable', updatedAt: '2026-11-27T04:00:05Z' }));
    expect(tracker.refreshes('node-1').bios).toBeDefined();
  });

  it('each refresh gets a new number, across nodes too; a deleted node is forgotten', () => {
    const tracker = new FirmwareRefreshTracker();
    tracker.requested(node('enroll'), 'manage');
    tracker.observed(node('manageable', { updatedAt: '2026-11-27T04:00:03Z' }));
    const first = tracker.refreshes('node-1').bios;
    tracker.requested({ ...node('enroll'), uuid: 'node-2' }, 'manage');
    tracker.observed({ ...node('manageable', { updatedAt: '2026-11-27T04:00:03Z' }), uuid: 'node-2' });
    expect(tracker.refreshes('node-2').bios).not.toBe(first);
    tracker.requested(node('active', { updatedAt: '2026-11-27T04:00:03Z' }), 'service');
    tracker.observed(node('active', { updatedAt: '2026-11-27T04:00:30Z' }));
    expect(tracker.refreshes('node-1').bios).not.toBe(first);
    tracker.drop('node-1');
    expect(tracker.refreshes('node-1')).toEqual({});
  });

  it('an operation that changes neither copy (deploying, automated cleaning) counts nothing', () => {
    const tracker = new FirmwareRefreshTracker();
    tracker.requested(node('manageable', { automated_clean: true }), 'provide');
    tracker.requested(node('available'), 'active');
    tracker.observed(node('active', { updatedAt: '2026-11-27T04:05:00Z' }));
    expect(tracker.refreshes('node-1')).toEqual({});
  });
});
