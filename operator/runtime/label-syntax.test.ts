import { describe, expect, it } from '@jest/globals';
import { labelKeyProblems, labelValueProblems } from './label-syntax.ts';

describe('label syntax (apimachinery\'s IsLabelKey and IsLabelValue)', () => {
  it.each(['role', 'example.com/role', 'a.b-c_d', 'hardware.metal3.io/cpu-count'])('takes the key %s', (key) => {
    expect(labelKeyProblems(key)).toEqual([]);
  });

  it('names the part of a key that is wrong', () => {
    expect(labelKeyProblems('/role')).toEqual(['prefix part must be non-empty']);
    expect(labelKeyProblems('Example.com/role')[0]).toMatch(/^prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters/);
    expect(labelKeyProblems('a/')).toEqual(['name part must be non-empty', expect.stringMatching(/^name part must consist of/)]);
    expect(labelKeyProblems('x'.repeat(64))).toEqual(['name part must be no more than 63 bytes']);
    expect(labelKeyProblems('a/b/c')[0]).toMatch(/^a valid label key must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
  });

  it('takes empty and ordinary values, and refuses others', () => {
    expect([labelValueProblems(''), labelValueProblems('gold_1.a')]).toEqual([[], []]);
    expect(labelValueProblems('-x')).toEqual([
      'a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
    ]);
    expect(labelValueProblems('v'.repeat(64))).toEqual(['must be no more than 63 bytes']);
  });
});
