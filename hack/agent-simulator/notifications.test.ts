import { describe, expect, it } from '@jest/globals';
import { bootsIntoDisk, powerEventOf, sushySystemSchema } from './notifications.ts';

const system = (fields: Record<string, unknown>) =>
  sushySystemSchema.parse({ uuid: 'u', name: 'fake', power_state: 'Off', nics: [], external_notifier: true, ...fields });

describe('sushy notifications', () => {
  it('reads pending power changes', () => {
    expect(powerEventOf(system({ pending_power: { power_state: 'On', apply_time: 10 } }))).toEqual({
      kind: 'power-on-pending',
      applyTime: 10,
    });
    // sushy drops the power immediately on a restart and reports the restart as pending.
    expect(powerEventOf(system({ pending_power: { power_state: 'ForceRestart', apply_time: 11 } }))).toEqual({
      kind: 'restart-pending',
      applyTime: 11,
    });
    expect(powerEventOf(system({ power_state: 'On', pending_power: { power_state: 'Off', apply_time: 12 } }))).toEqual({
      kind: 'power-off-pending',
      applyTime: 12,
    });
  });

  it('reads applied power states', () => {
    expect(powerEventOf(system({ power_state: 'On', pending_power: null }))).toEqual({ kind: 'is-on' });
    expect(powerEventOf(system({ boot_device: 'Pxe' }))).toEqual({ kind: 'is-off' });
  });

  it('tells disk boots from ramdisk boots', () => {
    expect(bootsIntoDisk('Hdd')).toBe(true);
    expect(bootsIntoDisk(undefined)).toBe(true);
    expect(bootsIntoDisk('Pxe')).toBe(false);
    expect(bootsIntoDisk('Cd')).toBe(false);
    expect(bootsIntoDisk('UefiHttp')).toBe(false);
  });
});
