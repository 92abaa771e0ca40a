import { describe, expect, it } from '@jest/globals';
import { canonicalIp, formatIp, parseIp } from './ip-address.ts';
import { ipAddressName } from './address-name.ts';

describe('IP addresses as numbers', () => {
  it('round-trips IPv4 and IPv6 to their canonical text', () => {
    expect(formatIp(parseIp('192.168.0.255')!)).toBe('192.168.0.255');
    expect(parseIp('10.0.0.1')).toEqual({ family: 4, value: 0x0a000001n });
    expect(canonicalIp('FD00:0:0:0:0:0:0:0005')).toBe('fd00::5');
    expect(canonicalIp('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalIp('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(canonicalIp('::')).toBe('::');
    expect(canonicalIp('::1')).toBe('::1');
    expect(canonicalIp('::ffff:192.0.2.1')).toBe('::ffff:c000:201');
  });

  it('rejects what is no address', () => {
    expect(parseIp('192.168.0.256')).toBeUndefined();
    expect(parseIp('fe80::1%eth0')).toBeUndefined();
    expect(parseIp('host.example')).toBeUndefined();
  });
});

describe('ipAddressName', () => {
  it('is <namePrefix>-<address> with dots and colons as dashes, like upstream', () => {
    expect(ipAddressName('test-prov', '192.168.0.10')).toBe('test-prov-192-168-0-10');
    expect(ipAddressName('v6', 'fd00::5')).toBe('v6-fd00--5');
    expect(ipAddressName('v6', 'fd00::')).toBe('v6-fd00');
  });
});
