import { describe, expect, it } from '@jest/globals';
import type { HostNetworkAttachment } from '../../api/hostnetworkattachment.ts';
import { goAtoi } from './go-atoi.ts';
import { validateHostNetworkAttachment, vlanEntryProblem } from './vlan-rules.ts';

// Built by hand, not parsed: the rules must hold for entries the CRD's pattern would stop too.
const attachment = (spec: Partial<NonNullable<HostNetworkAttachment['spec']>>): HostNetworkAttachment =>
  ({ metadata: { namespace: 'net', name: 'a' }, spec: { mode: 'trunk', nativeVLAN: 1, ...spec } });
const messages = (spec: Partial<NonNullable<HostNetworkAttachment['spec']>>) => validateHostNetworkAttachment(attachment(spec)).map(({ message }) => message);

describe('Go\'s strconv.Atoi', () => {
  it('takes a sign and decimal digits within int64, and says why not in Go\'s words', () => {
    expect(goAtoi('0100')).toEqual({ ok: true, value: 100 });
    expect(goAtoi('+7')).toEqual({ ok: true, value: 7 });
    expect(goAtoi('-7')).toEqual({ ok: true, value: -7 });
    expect(goAtoi('9223372036854775807')).toMatchObject({ ok: true });
    expect(goAtoi('9223372036854775808')).toEqual({ ok: false, error: 'strconv.Atoi: parsing "9223372036854775808": value out of range' });
    for (const input of ['', '+', '1_000', ' 1', '1.0', 'abc', '0x10']) {
      expect(goAtoi(input)).toEqual({ ok: false, error: `strconv.Atoi: parsing ${JSON.stringify(input)}: invalid syntax` });
    }
  });
});

describe('the HostNetworkAttachment rules', () => {
  it('accept BMO\'s samples, VLAN IDs and increasing ranges in trunk and hybrid mode', () => {
    expect(messages({ mode: 'access', nativeVLAN: 100, mtu: 1500 })).toEqual([]);
    expect(messages({ mode: 'access', allowedVLANs: [] })).toEqual([]);
    expect(messages({ mode: 'trunk', nativeVLAN: 200, allowedVLANs: ['200-203'], mtu: 9000 })).toEqual([]);
    expect(messages({ mode: 'hybrid', allowedVLANs: ['1', '4094', '10-11', '1-4094'] })).toEqual([]);
  });

  it('refuse tagged VLANs in access mode', () => {
    expect(messages({ mode: 'access', allowedVLANs: ['100'] })).toEqual(['allowedVLANs cannot be specified for access mode']);
  });

  it('refuse each bad entry with BMO\'s message, all of them at once', () => {
    expect(messages({ allowedVLANs: ['abc', '0', '4095', '100-', '100-x', '100-5000', '200-100', '300-300', '99999999999999999999', '7-8'] })).toEqual([
      'allowedVLANs[0] "abc": invalid VLAN ID: strconv.Atoi: parsing "abc": invalid syntax',
      'allowedVLANs[1] "0": VLAN ID 0 out of range 1-4094',
      'allowedVLANs[2] "4095": VLAN ID 4095 out of range 1-4094',
      'allowedVLANs[3] "100-": invalid range end: strconv.Atoi: parsing "": invalid syntax',
      'allowedVLANs[4] "100-x": invalid range end: strconv.Atoi: parsing "x": invalid syntax',
      'allowedVLANs[5] "100-5000": VLAN ID 5000 out of range 1-4094',
      'allowedVLANs[6] "200-100": range start (200) must be less than end (100)',
      'allowedVLANs[7] "300-300": range start (300) must be less than end (300)',
      'allowedVLANs[8] "99999999999999999999": invalid VLAN ID: strconv.Atoi: parsing "99999999999999999999": value out of range',
    ]);
    expect(validateHostNetworkAttachment(attachment({ mode: 'access', allowedVLANs: ['1', '0'] }))).toEqual([
      { field: 'spec.allowedVLANs', message: 'allowedVLANs cannot be specified for access mode' },
      { field: 'spec.allowedVLANs[1]', message: 'allowedVLANs[1] "0": VLAN ID 0 out of range 1-4094' },
    ]);
  });

  it('split an entry at its first dash, as BMO does', () => {
    expect(vlanEntryProblem('-5')).toBe('invalid VLAN ID: strconv.Atoi: parsing "": invalid syntax');
    expect(vlanEntryProblem('1-2-3')).toBe('invalid range end: strconv.Atoi: parsing "2-3": invalid syntax');
  });

  it('find nothing wrong in an attachment without a spec (Go reads it as the zero spec)', () => {
    expect(validateHostNetworkAttachment({ metadata: { namespace: 'net', name: 'a' } })).toEqual([]);
  });
});
