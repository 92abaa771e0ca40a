import { describe, expect, it } from '@jest/globals';
import { firmwareSchemaName } from './firmwareschema.ts';

describe('firmwareSchemaName', () => {
  it('is BMO\'s name: the same for the same registry in any order, different when a limit differs', () => {
    const a = { ProcTurboMode: { attribute_type: 'Enumeration' as const, allowable_values: ['Enabled', 'Disabled'] }, NumCores: { attribute_type: 'Integer' as const, lower_bound: 10, upper_bound: 20, read_only: true } };
    const b = { NumCores: a.NumCores, ProcTurboMode: a.ProcTurboMode };
    expect(firmwareSchemaName(a)).toMatch(/^schema-[0-9a-f]{8}$/);
    expect(firmwareSchemaName(b)).toBe(firmwareSchemaName(a));
    expect(firmwareSchemaName({ ...a, NumCores: { ...a.NumCores, upper_bound: 32 } })).not.toBe(firmwareSchemaName(a));
  });

  it('hashes the text Go prints for the sorted strings', async () => {
    const { createHash } = await import('node:crypto');
    const expected = `schema-${createHash('sha256').update('[A Enumeration X Y]').digest('hex').slice(0, 8)}`;
    expect(firmwareSchemaName({ A: { attribute_type: 'Enumeration', allowable_values: ['Y', 'X'] } })).toBe(expected);
  });
});
