import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { propertyRuns } from '../../test/support/fault-scale.ts';
import { bmcAccessFor } from './bmc-access-for.ts';
import { BMCAddressError } from './bmc-address-error.ts';
import { parseBMCAddress } from './parse-bmc-address.ts';

// Hostile BMC addresses: any Unicode text, and URL-shaped text built from the pieces a parser
// trips on. parse-fuzz.test.ts covers a fixed seed; this runs fast-check's shrinking generator
// with the fault suite's scale (METAL3_TS_FAULTS_SCALE=large: 20,000 per property).
const schemes = fc.constantFrom('', 'ipmi://', 'IPMI:', 'redfish://', 'redfish+https://', 'redfish-virtualmedia+http://', 'idrac-virtualmedia://',
  'ilo5-redfish://', 'irmc://', 'libvirt:', 'fake://', 'x-y+z://', '://', 'http://', '[');
const hosts = fc.oneof(fc.domain(), fc.ipV4(), fc.ipV6().map((ip) => `[${ip}]`), fc.ipV6(), fc.string({ unit: 'grapheme', maxLength: 20 }));
const tails = fc.array(fc.oneof(
  fc.constantFrom(':', ':623', ':0', ':99999999999', '/', '//', '/redfish/v1/Systems/1', '%', '%2', '%25', '%zz', '?', '?a=b&a', '#x', '@', 'user:pw@', '[', ']', ' ', '\n', '\u0000', '\u202e', '\ud800'),
  fc.string({ unit: 'binary', maxLength: 8 }),
), { maxLength: 6 }).map((parts) => parts.join(''));
const urlShaped = fc.tuple(schemes, hosts, tails).map(([scheme, host, tail]) => `${scheme}${host}${tail}`);
const addresses = fc.oneof(urlShaped, fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme-composite', maxLength: 60 }));

describe('BMC addresses, hostile', () => {
  it('bmcAccessFor gives access details or a BMCAddressError, never throws', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(fc.property(addresses, fc.boolean(), (address, disableCertificateVerification) => {
      const result = bmcAccessFor({ address, disableCertificateVerification });
      if (result.ok) {
        accepted++;
        const info = result.access.driverInfo({ username: 'u', password: 'p' });
        expect(typeof result.access.driver).toBe('string');
        expect(Object.values(info).every((value) => typeof value === 'string' || typeof value === 'boolean')).toBe(true);
      } else {
        refused++;
        expect(result.error).toBeInstanceOf(BMCAddressError);
        expect(result.error.message).not.toBe('');
      }
    }), { numRuns: propertyRuns() });
    // Both paths must be reached for the property to mean anything.
    expect(accepted).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('parseBMCAddress is a function of its input: the same address, the same answer', () => {
    fc.assert(fc.property(addresses, (address) => {
      const first = parseBMCAddress(address);
      const second = parseBMCAddress(address);
      expect(second.ok).toBe(first.ok);
      if (first.ok && second.ok) expect(second.parsed).toEqual(first.parsed);
      if (first.ok) expect(first.parsed.scheme).toBe(first.parsed.scheme.toLowerCase());
    }), { numRuns: propertyRuns() });
  });
});
