import { describe, expect, it } from '@jest/globals';
import { isGoMACAddress } from './bmc-rules.ts';
import { messagesFor, testHost } from './test-host.ts';
import { validateHost } from './validate-host.ts';

const bmc = (address: string) => ({ bmc: { address, credentialsName: 'bmc' } });

describe('BMC address rules', () => {
  it('accepts every scheme BMO knows and a host without BMC', () => {
    for (const address of ['ipmi://127.0.0.1:6230', '127.0.0.1', 'redfish-virtualmedia+http://[fd00::1]:8000/redfish/v1/Systems/x',
      'idrac-virtualmedia://bmc.example.com/redfish/v1/Systems/System.Embedded.1', 'redfish-uefihttp://h/redfish/v1/Systems/1']) {
      expect(messagesFor(testHost({ spec: { ...bmc(address), bootMACAddress: '00:11:22:33:44:55' } }))).toEqual([]);
    }
    expect(messagesFor(testHost({ spec: { bmc: undefined } }))).toEqual([]);
  });

  it('refuses an unknown scheme with BMO\'s message, naming the field', () => {
    const violations = validateHost(testHost({ spec: bmc('foo://127.0.0.1') }), { allowFakeHardware: false });
    expect(violations).toEqual([{ field: 'spec.bmc.address', message: "Unknown BMC type 'foo' for address foo://127.0.0.1" }]);
  });

  it('refuses an invalid host name once, though two rules find it', () => {
    expect(messagesFor(testHost({ spec: bmc('redfish://bad_host!/redfish/v1') }))).toEqual([
      'failed to parse BMC address information: BMC address hostname/IP : [bad_host!] is invalid',
      'failed to parse BMC address information: BMC address hostname/IP : [bad_host!] is invalid',
    ]);
  });

  it('refuses fake-hardware:// unless the operator allows it', () => {
    const host = testHost({ spec: { ...bmc('fake-hardware://x'), bootMACAddress: '00:11:22:33:44:55' } });
    expect(messagesFor(host)[0]).toMatch(/test-only hook/);
    expect(messagesFor(host, { allowFakeHardware: true })).toEqual([]);
  });
});

describe('BMC driver rules', () => {
  it('requires bootMACAddress for libvirt and when inspection is disabled', () => {
    expect(messagesFor(testHost({ spec: bmc('libvirt://127.0.0.1') }))).toEqual(['BMC driver libvirt requires a BootMACAddress value']);
    expect(messagesFor(testHost({ spec: { inspectionMode: 'disabled' } })))
      .toEqual(['BMC driver redfish requires a BootMACAddress value']);
    expect(messagesFor(testHost({ annotations: { 'inspect.metal3.io': 'disabled' } })))
      .toEqual(['BMC driver redfish requires a BootMACAddress value']);
  });

  it('refuses hardware RAID on a driver without RAID, secure boot where unsupported', () => {
    expect(messagesFor(testHost({ spec: { ...bmc('ipmi://h'), raid: { hardwareRAIDVolumes: [{ level: '1' }] } } })))
      .toEqual(['BMC driver ipmi does not support configuring RAID']);
    expect(messagesFor(testHost({ spec: { ...bmc('ipmi://h'), bootMode: 'UEFISecureBoot' } })))
      .toEqual(['BMC driver ipmi does not support secure boot']);
    expect(messagesFor(testHost({ spec: { bootMode: 'UEFISecureBoot' } }))).toEqual([]);
  });

  it('parses MACs as Go does', () => {
    expect(['00:11:22:33:44:55', '00-11-22-33-44-55', '0011.2233.4455', '00:11:22:33:44:55:66:77'].every(isGoMACAddress)).toBe(true);
    expect(['00:11:22:33:44', '00:11-22:33:44:55', 'zz:11:22:33:44:55', ''].some(isGoMACAddress)).toBe(false);
  });
});
