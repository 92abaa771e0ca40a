import { describe, expect, it } from '@jest/globals';
import { SETTINGS_RESYNC_MS, SettingsReadSchedule } from './read-schedule.ts';

describe('SettingsReadSchedule', () => {
  it('without a refresh count, reads on a new node or state and on the slow resync, not otherwise', () => {
    const schedule = new SettingsReadSchedule();
    expect(schedule.due('uid', { marker: 'node/inspecting' }, 0)).toBe(true);
    schedule.read('uid', { marker: 'node/inspecting' }, 0);
    expect(schedule.due('uid', { marker: 'node/inspecting' }, 60_000)).toBe(false);
    expect(schedule.due('uid', { marker: 'node/preparing' }, 60_000)).toBe(true);
    expect(schedule.due('uid', { marker: 'node/inspecting' }, SETTINGS_RESYNC_MS)).toBe(true);
    schedule.forget('uid');
    expect(schedule.due('uid', { marker: 'node/inspecting' }, 1)).toBe(true);
  });

  it('with a refresh count, reads when the count moves, whatever the state, and on the slow resync', () => {
    const schedule = new SettingsReadSchedule();
    schedule.read('uid', { marker: 'node/inspecting', refresh: 1 }, 0);
    // Inspection refreshed the components only: the BIOS count stays, so preparing and available read nothing.
    expect(schedule.due('uid', { marker: 'node/preparing', refresh: 1 }, 1_000)).toBe(false);
    expect(schedule.due('uid', { marker: 'node/available', refresh: 1 }, 2_000)).toBe(false);
    // Cleaning ended (provide, manual cleaning, deprovisioning): read, once.
    expect(schedule.due('uid', { marker: 'node/provisioned', refresh: 4 }, 3_000)).toBe(true);
    schedule.read('uid', { marker: 'node/provisioned', refresh: 4 }, 3_000);
    expect(schedule.due('uid', { marker: 'node/provisioned', refresh: 4 }, 4_000)).toBe(false);
    expect(schedule.due('uid', { marker: 'node/provisioned', refresh: 4 }, 3_000 + SETTINGS_RESYNC_MS)).toBe(true);
  });

  it('a count seen for the first time, or lost (another process asked), reads', () => {
    const schedule = new SettingsReadSchedule();
    schedule.read('uid', { marker: 'node/available' }, 0);
    expect(schedule.due('uid', { marker: 'node/available', refresh: 2 }, 1_000)).toBe(true);
    schedule.read('uid', { marker: 'node/provisioned', refresh: 2 }, 1_000);
    expect(schedule.due('uid', { marker: 'node/provisioned' }, 2_000)).toBe(false);
    expect(schedule.due('uid', { marker: 'node/available' }, 2_000)).toBe(true);
  });

  it('reads nothing while an operation under way is about to refresh the copy, except the slow resync', () => {
    const schedule = new SettingsReadSchedule();
    // Inspection under way on a host never read: its end is the first read.
    expect(schedule.due('uid', { marker: 'node/inspecting', awaited: true }, 0)).toBe(false);
    expect(schedule.due('uid', { marker: 'node/available', refresh: 1 }, 1_000)).toBe(true);
    schedule.read('uid', { marker: 'node/available', refresh: 1 }, 1_000);
    // A manual cleaning under way moved the state: still nothing until it ends.
    expect(schedule.due('uid', { marker: 'node/preparing', refresh: 1, awaited: true }, 2_000)).toBe(false);
    expect(schedule.due('uid', { marker: 'node/preparing', refresh: 1, awaited: true }, 1_000 + SETTINGS_RESYNC_MS)).toBe(true);
  });
});
