import { describe, expect, it } from '@jest/globals';
import { bmcAccessFor } from './bmc-access-for.ts';
import { SUPPORTED_BMC_SCHEMES } from './bmc-types.ts';
import { testOnlyBMCProblem } from './fake-hardware-access.ts';

describe('the test-only fake-hardware scheme', () => {
  const result = bmcAccessFor({ address: 'fake-hardware://bench-host-1' });
  if (!result.ok) throw result.error;
  const { access } = result;

  it('drives Ironic fake-hardware with fake boot, power, management and deploy and no driver_info', () => {
    expect(access).toMatchObject({
      type: 'fake-hardware',
      driver: 'fake-hardware',
      interfaces: { boot: 'fake', power: 'fake', management: 'fake', deploy: 'fake', inspect: '' },
      needsMac: true,
      requiresProvisioningNetwork: false,
      testOnly: true,
    });
    expect(access.driverInfo({ username: 'u', password: 'p' })).toEqual({});
  });

  it('is never listed as supported and is refused unless allowed', () => {
    expect(SUPPORTED_BMC_SCHEMES).not.toContain('fake-hardware');
    expect(testOnlyBMCProblem({ access, allowFakeHardware: false })).toMatch(/test-only.*--allow-fake-hardware/);
    expect(testOnlyBMCProblem({ access, allowFakeHardware: true })).toBeUndefined();
  });

  it('leaves real BMC types alone', () => {
    const redfish = bmcAccessFor({ address: 'redfish+http://127.0.0.1:8000/redfish/v1/Systems/1' });
    if (!redfish.ok) throw redfish.error;
    expect(redfish.access.testOnly).toBeUndefined();
    expect(redfish.access.interfaces.deploy).toBeUndefined();
    expect(testOnlyBMCProblem({ access: redfish.access, allowFakeHardware: false })).toBeUndefined();
  });
});
