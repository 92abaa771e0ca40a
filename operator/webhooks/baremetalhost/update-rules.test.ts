import { describe, expect, it } from '@jest/globals';
import type { BareMetalHostInput } from '../../api/baremetalhost.ts';
import { testHost } from './test-host.ts';
import { validateHostUpdate } from './validate-host.ts';

const options = { allowFakeHardware: false };
const status = (state: string, operationalStatus = 'OK') =>
  ({ operationalStatus, provisioning: { state } }) as unknown as BareMetalHostInput['status'];
const redfish = (path: string) => ({ bmc: { address: `redfish://127.0.0.1:8000${path}`, credentialsName: 'bmc' } });
const messages = (old: ReturnType<typeof testHost>, updated: ReturnType<typeof testHost>) =>
  validateHostUpdate(old, updated, options).map((violation) => violation.message);

describe('update rules', () => {
  it('allows a BMC address change only while registering or detached', () => {
    const refused = 'BMC address can not be changed if the BMH is not in the Registering state, or if the BMH is not detached';
    for (const [state, operational, expected] of [['provisioned', 'OK', [refused]], ['registering', 'OK', []], ['provisioned', 'detached', []]] as const) {
      const old = testHost({ spec: redfish('/a'), status: status(state, operational) });
      const updated = testHost({ spec: redfish('/b'), status: status(state, operational) });
      expect(messages(old, updated)).toEqual(expected);
    }
    // A host that had no address may get one at any time.
    expect(messages(testHost({ spec: { bmc: undefined }, status: status('unmanaged') }), testHost({ status: status('unmanaged') }))).toEqual([]);
  });

  it('keeps bootMACAddress once set, ignoring case', () => {
    const old = testHost({ spec: { bootMACAddress: '00:aa:bb:cc:dd:ee' } });
    expect(messages(old, testHost({ spec: { bootMACAddress: '00:AA:BB:CC:DD:EE' } }))).toEqual([]);
    expect(messages(old, testHost({ spec: { bootMACAddress: '00:aa:bb:cc:dd:ef' } }))).toEqual(['bootMACAddress can not be changed once it is set']);
    expect(messages(testHost(), testHost({ spec: { bootMACAddress: '00:aa:bb:cc:dd:ef' } }))).toEqual([]);
  });

  it('enables externallyProvisioned only from available', () => {
    const from = (state: string) => messages(testHost({ status: status(state) }), testHost({ spec: { externallyProvisioned: true }, status: status(state) }));
    expect(from('available')).toEqual([]);
    expect(from('provisioned')).toEqual(['externallyProvisioned can only be enabled when in Available state, currently in provisioned']);
  });

  it('applies the creation rules to the new object too', () => {
    expect(messages(testHost(), testHost({ name: 'host-0', spec: { disablePowerOff: true, online: false } })))
      .toEqual(["node can't simultaneously have online set to false and have power off disabled"]);
  });
});
