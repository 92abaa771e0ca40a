import { describe, it, expect } from '@jest/globals';
import type { DriverInfo } from './bmc-access.ts';
import { bmcAccessFor } from './bmc-access-for.ts';

const credentials = { username: 'admin', password: 's3cret' };

function driverInfo(address: string, options: { disableCertificateVerification: boolean }): DriverInfo {
  const result = bmcAccessFor({ address, ...options });
  if (!result.ok) throw result.error;
  return result.access.driverInfo(credentials);
}

const ipmi = (overrides: DriverInfo): DriverInfo => ({
  ipmi_address: '192.168.122.1',
  ipmi_port: '623',
  ipmi_username: 'admin',
  ipmi_password: 's3cret',
  ipmi_priv_level: 'ADMINISTRATOR',
  ...overrides,
});

const redfish = (overrides: DriverInfo): DriverInfo => ({
  redfish_address: 'https://192.168.122.1',
  redfish_username: 'admin',
  redfish_password: 's3cret',
  ...overrides,
});

describe('driverInfo', () => {
  it.each<[string, DriverInfo]>([
    ['ipmi://192.168.122.1', ipmi({})],
    ['192.168.122.1', ipmi({})],
    ['ipmi://192.168.122.1:6233', ipmi({ ipmi_port: '6233' })],
    ['[fd00::1]:6233', ipmi({ ipmi_address: 'fd00::1', ipmi_port: '6233' })],
    ['ipmi://[fd00::1]', ipmi({ ipmi_address: 'fd00::1' })],
    ['ipmi://192.168.122.1?privilegelevel=OPERATOR', ipmi({ ipmi_priv_level: 'OPERATOR' })],
    ['ipmi:192.168.122.1?privilegelevel=USER&privilegelevel=OPERATOR', ipmi({ ipmi_priv_level: 'USER' })],
    ['ipmi://192.168.122.1?privilegelevel=', ipmi({ ipmi_priv_level: '' })],
    // Go's ParseQuery rejects ';' separators; BMO then keeps the default.
    ['ipmi://192.168.122.1?a=1;privilegelevel=USER', ipmi({})],
    ['ipmi://192.168.122.1?privilegelevel=%zz', ipmi({})],
    ['libvirt://192.168.122.1:6233/', ipmi({ ipmi_port: '6233' })],
    ['redfish://192.168.122.1/redfish/v1/foo/bar', redfish({ redfish_system_id: '/redfish/v1/foo/bar' })],
    ['redfish+http://192.168.122.1/foo/bar', redfish({ redfish_address: 'http://192.168.122.1', redfish_system_id: '/foo/bar' })],
    ['redfish+https://192.168.122.1/foo/bar', redfish({ redfish_system_id: '/foo/bar' })],
    ['redfish://192.168.122.1:8080/foo/bar', redfish({ redfish_address: 'https://192.168.122.1:8080', redfish_system_id: '/foo/bar' })],
    ['redfish://[fe80::fc33:62ff:fe83:8a76]/foo/bar', redfish({ redfish_address: 'https://[fe80::fc33:62ff:fe83:8a76]', redfish_system_id: '/foo/bar' })],
    ['redfish://[fe80::fc33:62ff:fe83:8a76]:8080/foo', redfish({ redfish_address: 'https://[fe80::fc33:62ff:fe83:8a76]:8080', redfish_system_id: '/foo' })],
    ['redfish+https://192.168.122.1/', redfish({})],
    ['redfish+https://192.168.122.1/redfish/v1/', redfish({})],
    ['redfish-virtualmedia://192.168.122.1/redfish/v1/foo/bar', redfish({ redfish_system_id: '/redfish/v1/foo/bar' })],
    ['redfish-virtualmedia://192.168.122.1/redfish/v1/', redfish({})],
    ['ilo5-virtualmedia://192.168.122.1/foo/bar', redfish({ redfish_system_id: '/foo/bar' })],
    ['ilo5-redfish+http://192.168.122.1', redfish({ redfish_address: 'http://192.168.122.1' })],
    ['idrac-redfish://192.168.122.1/foo/bar', redfish({ redfish_system_id: '/foo/bar' })],
    ['idrac-virtualmedia://192.168.122.1/redfish/v1/foo/bar', redfish({ redfish_system_id: '/redfish/v1/foo/bar' })],
    ['idrac-virtualmedia+http://192.168.122.1/redfish/v1/', redfish({ redfish_address: 'http://192.168.122.1' })],
    // UEFI HTTP boot always sends the system ID, even when empty.
    ['redfish-uefihttp://192.168.122.1', redfish({ redfish_system_id: '' })],
    ['redfish-uefihttp+http://192.168.122.1/redfish/v1/', redfish({ redfish_address: 'http://192.168.122.1', redfish_system_id: '/redfish/v1/' })],
  ])('%s', (address, expected) => {
    expect(driverInfo(address, { disableCertificateVerification: false })).toEqual(expected);
  });

  it.each([
    ['ipmi://192.168.122.1', 'ipmi_verify_ca'],
    ['libvirt://192.168.122.1', 'ipmi_verify_ca'],
    ['redfish://192.168.122.1', 'redfish_verify_ca'],
    ['redfish-uefihttp://192.168.122.1', 'redfish_verify_ca'],
    ['idrac-virtualmedia://192.168.122.1', 'redfish_verify_ca'],
  ])('%s sets %s=false only when verification is disabled', (address, key) => {
    expect(driverInfo(address, { disableCertificateVerification: true })[key]).toBe(false);
    expect(driverInfo(address, { disableCertificateVerification: false })).not.toHaveProperty(key);
  });
});
