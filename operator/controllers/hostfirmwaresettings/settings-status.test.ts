import { describe, expect, it } from '@jest/globals';
import type { HostFirmwareSettings } from '../../api/hostfirmwaresettings.ts';
import { pendingSettingChanges } from './pending-settings.ts';
import { computeSettingsStatus } from './settings-status.ts';

const NOW = new Date('2026-11-25T06:00:00Z');
const LATER = new Date('2026-11-25T07:00:00Z');
const schemaRef = { namespace: 'ns', name: 'schema-12345678' };
const schema = {
  ProcTurboMode: { attribute_type: 'Enumeration' as const, allowable_values: ['Enabled', 'Disabled'] },
  NumCores: { attribute_type: 'Integer' as const, read_only: true },
};
const observed = { settings: { ProcTurboMode: 'Enabled', NumCores: '10', SysPassword: '' }, schemaRef, schema };

function hfs(settings: Record<string, string | number>, generation = 1, status?: HostFirmwareSettings['status']): HostFirmwareSettings {
  return { metadata: { name: 'host', namespace: 'ns', generation }, spec: { settings }, ...(status ? { status } : {}) };
}

describe('computeSettingsStatus', () => {
  it('records the settings without passwords; an empty spec is valid and unchanged', () => {
    const result = computeSettingsStatus(hfs({}), observed, NOW);
    expect(result.changed).toBe(true);
    expect(result.status).toMatchObject({ schema: schemaRef, settings: { ProcTurboMode: 'Enabled', NumCores: '10' }, lastUpdated: '2026-11-25T06:00:00Z' });
    expect(result.status.conditions?.map((c) => [c.type, c.status, c.reason, c.observedGeneration])).toEqual([
      ['ChangeDetected', 'False', 'Success', 1],
      ['Valid', 'True', 'Success', 1],
    ]);
    expect(result.problems).toEqual([]);
  });

  it('is unchanged (no write, no lastUpdated bump, no events) when nothing moved', () => {
    const first = computeSettingsStatus(hfs({ NumCores: 12 }), observed, NOW);
    expect(first.problems).toEqual(['Setting NumCores is invalid, it is ReadOnly']);
    const again = computeSettingsStatus(hfs({ NumCores: 12 }, 1, first.status), observed, LATER);
    expect(again.changed).toBe(false);
    expect(again.problems).toEqual([]);
    expect(again.status.lastUpdated).toBe('2026-11-25T06:00:00Z');
  });

  it('validates every spec entry, even one already matching (as BMO does)', () => {
    const status = computeSettingsStatus(hfs({ ProcTurboMode: 'Disabled', NumCores: '10' }), observed, NOW).status;
    expect(status.conditions?.find((c) => c.type === 'Valid')).toMatchObject({ status: 'False' });
  });

  it('marks a valid difference as a change to apply, and only that', () => {
    const observedMore = { ...observed, settings: { ...observed.settings, EmbeddedSata: 'Raid' }, schema: { ...schema, EmbeddedSata: { attribute_type: 'Enumeration' as const, allowable_values: ['Raid', 'Ahci'] } } };
    const status = computeSettingsStatus(hfs({ ProcTurboMode: 'Disabled', EmbeddedSata: 'Raid' }, 2), observedMore, NOW).status;
    expect(status.conditions?.find((c) => c.type === 'ChangeDetected')).toMatchObject({ status: 'True', observedGeneration: 2 });
    expect(status.conditions?.find((c) => c.type === 'Valid')).toMatchObject({ status: 'True' });
    expect(pendingSettingChanges(hfs({ ProcTurboMode: 'Disabled', EmbeddedSata: 'Raid' }, 2, status))).toEqual([{ name: 'ProcTurboMode', value: 'Disabled' }]);
  });

  it('applies nothing that is invalid, or that was judged for an older generation', () => {
    const invalid = computeSettingsStatus(hfs({ ProcTurboMode: 'Sometimes' }), observed, NOW).status;
    expect(invalid.conditions?.find((c) => c.type === 'Valid')).toMatchObject({ status: 'False', reason: 'ConfigurationError', message: 'Invalid BIOS setting' });
    expect(pendingSettingChanges(hfs({ ProcTurboMode: 'Sometimes' }, 1, invalid))).toEqual([]);
    const valid = computeSettingsStatus(hfs({ ProcTurboMode: 'Disabled' }), observed, NOW).status;
    expect(pendingSettingChanges(hfs({ ProcTurboMode: 'Disabled' }, 2, valid))).toEqual([]);
    expect(pendingSettingChanges(undefined)).toEqual([]);
  });
});
