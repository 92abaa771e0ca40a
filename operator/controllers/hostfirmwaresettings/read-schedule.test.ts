import { describe, expect, it } from '@jest/globals';
import { SETTINGS_RESYNC_MS, SettingsReadSchedule } from './read-schedule.ts';

describe('SettingsReadSchedule', () => {
  it('reads on a new node or state and on the slow resync, not otherwise', () => {
    const schedule = new SettingsReadSchedule();
    expect(schedule.due('uid', 'node/inspecting', 0)).toBe(true);
    schedule.read('uid', 'node/inspecting', 0);
    expect(schedule.due('uid', 'node/inspecting', 60_000)).toBe(false);
    expect(schedule.due('uid', 'node/preparing', 60_000)).toBe(true);
    expect(schedule.due('uid', 'node/inspecting', SETTINGS_RESYNC_MS)).toBe(true);
    schedule.forget('uid');
    expect(schedule.due('uid', 'node/inspecting', 1)).toBe(true);
  });
});
