import { describe, expect, it } from '@jest/globals';
import { netmask } from './netmask.ts';

describe('netmask', () => {
  it.each([
    [24, 'ipv4', '255.255.255.0'], [0, 'ipv4', '0.0.0.0'], [32, 'ipv4', '255.255.255.255'], [20, 'ipv4', '255.255.240.0'],
    [64, 'ipv6', 'ffff:ffff:ffff:ffff::'], [128, 'ipv6', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], [0, 'ipv6', '::'], [52, 'ipv6', 'ffff:ffff:ffff:f000::'],
  ] as const)('/%i %s is %s', (prefix, family, mask) => {
    expect(netmask(prefix, family)).toBe(mask);
  });

  it('is empty without a prefix and refuses impossible ones', () => {
    expect(netmask(undefined, 'ipv4')).toBe('');
    expect(() => netmask(33, 'ipv4')).toThrow('not between 0 and 32');
  });
});
