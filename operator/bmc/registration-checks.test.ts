import { describe, it, expect } from '@jest/globals';
import type { BMCAccess } from './bmc-access.ts';
import { bmcAccessFor } from './bmc-access-for.ts';
import { bootMACProblem, driverCompatibilityProblem, inspectInterfaceFor } from './registration-checks.ts';

function access(address: string): BMCAccess {
  const result = bmcAccessFor({ address });
  if (!result.ok) throw result.error;
  return result.access;
}

const fine = { provisioningNetworkDisabled: false, disablePowerOff: false, ironicSupportsDisablePowerOff: true };

describe('driverCompatibilityProblem', () => {
  it.each([
    ['ipmi://h', { inspectionMode: 'fast' }, 'BMC driver ipmi does not support fast (out-of-band) inspection'],
    ['redfish://h', { inspectionMode: 'fast' }, undefined],
    ['libvirt://h', { bootMode: 'UEFISecureBoot' }, 'BMC driver libvirt does not support secure boot'],
    ['idrac-virtualmedia://h', { bootMode: 'UEFISecureBoot' }, undefined],
    ['redfish+http://h', { provisioningNetworkDisabled: true }, 'BMC driver redfish+http requires a provisioning network'],
    ['redfish-virtualmedia://h', { provisioningNetworkDisabled: true }, undefined],
    ['redfish-uefihttp://h', { provisioningNetworkDisabled: true }, undefined],
    [
      'redfish-virtualmedia://h',
      { disablePowerOff: true, ironicSupportsDisablePowerOff: false },
      'current ironic version does not support DisablePowerOff, refusing to manage node',
    ],
  ])('%s with %j', (address, overrides, expected) => {
    expect(driverCompatibilityProblem({ ...fine, ...overrides, access: access(address) })).toBe(expected);
  });
});

describe('bootMACProblem', () => {
  it.each([
    ['libvirt://h', false, undefined, 'BMC driver libvirt requires a BootMACAddress value'],
    ['libvirt://h', false, '00:11:22:33:44:55', undefined],
    ['ipmi://h', false, undefined, undefined],
    ['redfish://h', true, undefined, 'BMC driver redfish requires a BootMACAddress value'],
    ['redfish://h', true, '00:11:22:33:44:55', undefined],
  ])('%s inspectionDisabled=%s mac=%s', (address, inspectionDisabled, bootMACAddress, expected) => {
    expect(bootMACProblem({ access: access(address), inspectionDisabled, bootMACAddress })).toBe(expected);
  });
});

describe('inspectInterfaceFor', () => {
  it.each([
    ['redfish://h', 'fast', 'redfish'],
    ['idrac-redfish://h', 'fast', 'redfish'],
    ['redfish://h', 'agent', 'agent'],
    ['redfish://h', undefined, 'agent'],
    ['ipmi://h', 'fast', 'agent'],
  ])('%s in mode %s', (address, inspectionMode, expected) => {
    expect(inspectInterfaceFor({ access: access(address), inspectionMode })).toBe(expected);
  });
});
