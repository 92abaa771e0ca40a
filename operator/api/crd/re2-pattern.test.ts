import { describe, expect, it } from '@jest/globals';
import { re2Incompatibility } from './re2-pattern.ts';

describe('re2Incompatibility', () => {
  it.each([
    ['[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}'],
    ['^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$'],
    ['^(?:a|b)$'],
    ['^\\d+\\.\\d+$'],
    ['\\\\1'],
  ])('accepts %s', (pattern) => {
    expect(re2Incompatibility(pattern)).toBeUndefined();
  });

  it.each([
    ['^(?=a)', /lookahead/],
    ['^(?!a)', /lookahead/],
    ['(?<=a)b', /lookbehind/],
    ['(?<!a)b', /lookbehind/],
    ['(a)\\1', /backreference/],
    ['(?<n>a)\\k<n>', /named backreference/],
  ])('rejects %s', (pattern, reason) => {
    expect(re2Incompatibility(pattern)).toMatch(reason);
  });
});
