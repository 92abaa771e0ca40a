import { describe, expect, it } from '@jest/globals';
import { settingProblem, settingsProblems } from './validate-setting.ts';

describe('settingProblem (BMO SettingSchema.Validate)', () => {
  it('refuses read-only settings and anything named Password', () => {
    expect(settingProblem('NumCores', 12, { attribute_type: 'Integer', read_only: true })).toBe('Setting NumCores is invalid, it is ReadOnly');
    expect(settingProblem('AdminPassword', 'x', { attribute_type: 'String' })).toBe("Setting AdminPassword is invalid, Password fields can't be set");
    expect(settingProblem('Secret', 'x', { attribute_type: 'Password' })).toBe('Setting Secret is invalid, passwords are immutable');
  });

  it('checks enumerations against their allowed values', () => {
    const schema = { attribute_type: 'Enumeration' as const, allowable_values: ['Enabled', 'Disabled'] };
    expect(settingProblem('ProcTurboMode', 'Disabled', schema)).toBeUndefined();
    expect(settingProblem('ProcTurboMode', 'Sometimes', schema)).toBe('Setting ProcTurboMode is invalid, unknown enumeration value - Sometimes');
  });

  it('checks integers: digits only, within both bounds', () => {
    const schema = { attribute_type: 'Integer' as const, lower_bound: 10, upper_bound: 20 };
    expect(settingProblem('Cores', 15, schema)).toBeUndefined();
    expect(settingProblem('Cores', '15', schema)).toBeUndefined();
    expect(settingProblem('Cores', 'many', schema)).toBe('Setting Cores is invalid, String many entered while integer expected');
    expect(settingProblem('Cores', 9, schema)).toBe('Setting Cores is invalid, integer 9 is below minimum value 10');
    expect(settingProblem('Cores', '21', schema)).toBe('Setting Cores is invalid, integer 21 is above maximum value 20');
  });

  it('checks string lengths and booleans; an untyped setting passes', () => {
    const schema = { attribute_type: 'String' as const, min_length: 2, max_length: 3 };
    expect(settingProblem('Tag', 'ab', schema)).toBeUndefined();
    expect(settingProblem('Tag', 'a', schema)).toBe('Setting Tag is invalid, string a length is below minimum length 2');
    expect(settingProblem('Tag', 'abcd', schema)).toBe('Setting Tag is invalid, string abcd length is above maximum length 3');
    expect(settingProblem('Quiet', 'true', { attribute_type: 'Boolean' })).toBeUndefined();
    expect(settingProblem('Quiet', 'yes', { attribute_type: 'Boolean' })).toBe('Setting Quiet is invalid, yes is not a boolean');
    expect(settingProblem('Anything', 'x', {})).toBeUndefined();
  });
});

describe('settingsProblems', () => {
  it('names settings the BMC lacks, those outside the schema and password fields', () => {
    const problems = settingsProblems(
      { Bogus: 'x', Orphan: 'y', SysPassword: 'z', ProcTurboMode: 'Disabled' },
      { Orphan: 'a', ProcTurboMode: 'Enabled' },
      { ProcTurboMode: { attribute_type: 'Enumeration', allowable_values: ['Enabled', 'Disabled'] } },
    );
    expect(problems).toEqual(['setting Bogus is not in the Status field', 'Setting Orphan is invalid, it is not in the associated schema', 'cannot set Password field']);
  });
});
