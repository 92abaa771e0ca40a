import { describe, it, expect } from '@jest/globals';
import { parseBMCAddress } from './parse-bmc-address.ts';

describe('parseBMCAddress', () => {
  it.each([
    // address, scheme, host, hostname, port, path, rawQuery
    ['libvirt://192.168.122.1:6233/?abc=def', 'libvirt', '192.168.122.1:6233', '192.168.122.1', '6233', '/', 'abc=def'],
    ['192.168.122.1', 'ipmi', '192.168.122.1', '192.168.122.1', '', '', ''],
    ['my.favoritebmc.com', 'ipmi', 'my.favoritebmc.com', 'my.favoritebmc.com', '', '', ''],
    ['192.168.122.1:6233', 'ipmi', '192.168.122.1:6233', '192.168.122.1', '6233', '', ''],
    ['[fe80::fc33:62ff:fe83:8a76]:6233', 'ipmi', '[fe80::fc33:62ff:fe83:8a76]:6233', 'fe80::fc33:62ff:fe83:8a76', '6233', '', ''],
    ['ipmi://192.168.122.1:6233', 'ipmi', '192.168.122.1:6233', '192.168.122.1', '6233', '', ''],
    ['ipmi:192.168.122.1', 'ipmi', '192.168.122.1', '192.168.122.1', '', '', ''],
    ['ipmi:192.168.122.1:6233', 'ipmi', '192.168.122.1:6233', '192.168.122.1', '6233', '', ''],
    ['ipmi:bmc.example.com?privilegelevel=OPERATOR', 'ipmi', 'bmc.example.com', 'bmc.example.com', '', '', 'privilegelevel=OPERATOR'],
    ['redfish://192.168.122.1', 'redfish', '192.168.122.1', '192.168.122.1', '', '', ''],
    ['redfish://192.168.122.1:6233/foo', 'redfish', '192.168.122.1:6233', '192.168.122.1', '6233', '/foo', ''],
    ['redfish://[fe80::fc33:62ff:fe83:8a76]', 'redfish', '[fe80::fc33:62ff:fe83:8a76]', 'fe80::fc33:62ff:fe83:8a76', '', '', ''],
    ['redfish://[fe80::fc33:62ff:fe83:8a76]:6233/foo', 'redfish', '[fe80::fc33:62ff:fe83:8a76]:6233', 'fe80::fc33:62ff:fe83:8a76', '6233', '/foo', ''],
    ['redfish:192.168.122.1', 'redfish', '192.168.122.1', '192.168.122.1', '', '', ''],
    // Go lower-cases the scheme and decodes the path.
    ['Redfish+HTTPS://bmc.example.com/redfish/v1/Systems/a%20b', 'redfish+https', 'bmc.example.com', 'bmc.example.com', '', '/redfish/v1/Systems/a b', ''],
    // Credentials in the URL are accepted and ignored.
    ['redfish://user:p%40ss@bmc.example.com/x', 'redfish', 'bmc.example.com', 'bmc.example.com', '', '/x', ''],
    // An empty host is let through (the BMC is unreachable later), as in BMO.
    ['redfish:///redfish/v1/Systems/1', 'redfish', '', '', '', '/redfish/v1/Systems/1', ''],
    // A DNS name with a port reads as scheme "bmc.example.com"; BMO then reports an unknown type.
    ['bmc.example.com:623', 'bmc.example.com', '623', '623', '', '', ''],
  ])('parses %s', (address, scheme, host, hostname, port, path, rawQuery) => {
    const result = parseBMCAddress(address);
    expect(result).toEqual({ ok: true, parsed: { scheme, host, hostname, port, path, rawQuery } });
  });

  it.each([
    ['my-.examplehost.com', 'failed to parse BMC address information: BMC address hostname/IP : [my-.examplehost.com] is invalid'],
    [
      '[fe80::fc33:62ff:fe33:8xff]:6223',
      'failed to parse BMC address information: BMC address hostname/IP : [fe80::fc33:62ff:fe33:8xff] is invalid',
    ],
    ['[fe80::fc33:62ff:fe83:8a76]', 'failed to parse BMC address information: parse "[fe80::fc33:62ff:fe83:8a76]": first path segment in URL cannot contain colon'],
    ['1.2.3.4:abc', 'failed to parse BMC address information: BMC address hostname/IP : [1.2.3.4:abc] is invalid'],
    ['redfish://bmc.example.com:http/', 'failed to parse BMC address information: parse "redfish://bmc.example.com:http/": invalid port ":http" after host'],
    // When Go's parser fails but the string still splits as host:port (first colon after the
    // scheme), BMO retries with the whole string as the host, so the hostname check reports it.
    ['redfish://bad host/', 'failed to parse BMC address information: BMC address hostname/IP : [redfish://bad host/] is invalid'],
    ['redfish://bmc/%zz', 'failed to parse BMC address information: BMC address hostname/IP : [redfish://bmc/%zz] is invalid'],
    ['redfish://a b@bmc/', 'failed to parse BMC address information: BMC address hostname/IP : [redfish://a b@bmc/] is invalid'],
    ['ipmi://[fe80::1%25eth0]', 'failed to parse BMC address information: BMC address hostname/IP : [fe80::1%eth0] is invalid'],
    ['under_score.example.com', 'failed to parse BMC address information: BMC address hostname/IP : [under_score.example.com] is invalid'],
    [`${'a'.repeat(64)}.example.com`, `failed to parse BMC address information: BMC address hostname/IP : [${'a'.repeat(64)}.example.com] is invalid`],
  ])('rejects %j', (address, message) => {
    const result = parseBMCAddress(address);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.reason).toBe('invalid-address');
    expect(result.error.message).toBe(message);
  });
});
