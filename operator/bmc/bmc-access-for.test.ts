import { describe, it, expect } from '@jest/globals';
import type { IronicInterfaces } from './bmc-access.ts';
import { bmcAccessFor } from './bmc-access-for.ts';
import { BMCAddressError } from './bmc-address-error.ts';
import { SUPPORTED_BMC_SCHEMES } from './bmc-types.ts';

const IPMI: IronicInterfaces = { bios: '', boot: 'ipxe', firmware: '', inspect: '', management: '', power: '', raid: 'no-raid', vendor: '' };
const redfish = (boot: string): IronicInterfaces => ({
  bios: '',
  boot,
  firmware: 'redfish',
  inspect: 'redfish',
  management: '',
  power: '',
  raid: 'redfish',
  vendor: '',
});
const idrac = (boot: string): IronicInterfaces => ({
  bios: 'idrac-redfish',
  boot,
  firmware: 'redfish',
  inspect: 'redfish',
  management: 'idrac-redfish',
  power: 'idrac-redfish',
  raid: 'idrac-redfish',
  vendor: 'idrac-redfish',
});

interface Expected {
  driver: string;
  interfaces: IronicInterfaces;
  needsMac: boolean;
  secureBoot: boolean;
  iso: boolean;
  provisioningNetwork: boolean;
}
const ipmiLike: Expected = { driver: 'ipmi', interfaces: IPMI, needsMac: false, secureBoot: false, iso: false, provisioningNetwork: true };
const redfishPxe: Expected = { driver: 'redfish', interfaces: redfish('ipxe'), needsMac: false, secureBoot: true, iso: false, provisioningNetwork: true };
const redfishVmedia: Expected = { ...redfishPxe, interfaces: redfish('redfish-virtual-media'), iso: true, provisioningNetwork: false };
const redfishHttpBoot: Expected = { ...redfishPxe, interfaces: redfish('redfish-https'), iso: true, provisioningNetwork: false };
const idracPxe: Expected = { ...redfishPxe, driver: 'idrac', interfaces: idrac('ipxe') };
const idracVmedia: Expected = { ...idracPxe, interfaces: idrac('idrac-redfish-virtual-media'), iso: true, provisioningNetwork: false };

const withTransports = (scheme: string, expected: Expected): Array<[string, Expected]> =>
  ['', '+http', '+https'].map((suffix) => [`${scheme}${suffix}://192.168.122.1`, expected]);

describe('bmcAccessFor', () => {
  it.each<[string, Expected]>([
    ['ipmi://192.168.122.1:6233', ipmiLike],
    ['192.168.122.1', ipmiLike],
    ['192.168.122.1:6233', ipmiLike],
    ['ipmi:bmc.example.com', ipmiLike],
    ['libvirt://192.168.122.1', { ...ipmiLike, needsMac: true }],
    ...withTransports('redfish', redfishPxe),
    ...withTransports('ilo5-redfish', redfishPxe),
    ...withTransports('redfish-virtualmedia', redfishVmedia),
    ...withTransports('ilo5-virtualmedia', redfishVmedia),
    ...withTransports('redfish-uefihttp', redfishHttpBoot),
    ...withTransports('idrac-redfish', idracPxe),
    ...withTransports('idrac-virtualmedia', idracVmedia),
  ])('%s', (address, expected) => {
    const result = bmcAccessFor({ address });
    if (!result.ok) throw result.error;
    const { access } = result;
    expect({
      driver: access.driver,
      interfaces: access.interfaces,
      needsMac: access.needsMac,
      secureBoot: access.supportsSecureBoot,
      iso: access.supportsIsoPreprovisioningImage,
      provisioningNetwork: access.requiresProvisioningNetwork,
    }).toEqual(expected);
    expect(access.type).toBe(address.includes('://') ? address.split('://')[0] : 'ipmi');
  });

  it('lists every registered scheme', () => {
    expect(SUPPORTED_BMC_SCHEMES).toHaveLength(2 + 7 * 3);
    expect(SUPPORTED_BMC_SCHEMES).toContain('idrac-virtualmedia+https');
    expect(SUPPORTED_BMC_SCHEMES).not.toContain('ipmi+https');
  });

  it.each([
    ['foo://192.168.122.1', "Unknown BMC type 'foo' for address foo://192.168.122.1"],
    ['ipmi+https://192.168.122.1', "Unknown BMC type 'ipmi+https' for address ipmi+https://192.168.122.1"],
    // Removed drivers are unknown now, as upstream.
    ['ilo4://192.168.122.1', "Unknown BMC type 'ilo4' for address ilo4://192.168.122.1"],
    ['irmc://192.168.122.1', "Unknown BMC type 'irmc' for address irmc://192.168.122.1"],
    ['idrac://192.168.122.1', "Unknown BMC type 'idrac' for address idrac://192.168.122.1"],
    // A DNS name with a port but no scheme parses as scheme "bmc.example.com".
    ['bmc.example.com:623', "Unknown BMC type 'bmc.example.com' for address bmc.example.com:623"],
    ['//192.168.122.1', "Unknown BMC type '' for address //192.168.122.1"],
  ])('reports an unknown type for %s', (address, message) => {
    const result = bmcAccessFor({ address });
    expect(result).toEqual({ ok: false, error: expect.any(BMCAddressError) });
    if (result.ok) return;
    expect(result.error.reason).toBe('unknown-type');
    expect(result.error.message).toBe(message);
  });

  it('reports a missing address', () => {
    const result = bmcAccessFor({ address: '' });
    if (result.ok) throw new Error('expected failure');
    expect(result.error.reason).toBe('missing-address');
    expect(result.error.message).toBe('missing BMC address');
  });

  it('reports an invalid hostname before looking at the scheme', () => {
    const result = bmcAccessFor({ address: 'foo://bad_host' });
    if (result.ok) throw new Error('expected failure');
    expect(result.error.reason).toBe('invalid-address');
  });
});
