import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '../runtime/index.ts';
import { reviewBareMetalHost } from './baremetalhost-validator.ts';

const deps = { options: { allowFakeHardware: false }, logger: silentLogger() };
const host = (spec: Record<string, unknown>, status?: Record<string, unknown>) => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'BareMetalHost', metadata: { name: 'h', namespace: 'n' },
  spec: { online: true, bmc: { address: 'redfish://127.0.0.1/redfish/v1/Systems/1', credentialsName: 'b' }, ...spec }, ...(status ? { status } : {}),
});

describe('reviewBareMetalHost', () => {
  it('allows a good host, by uid', () => {
    expect(reviewBareMetalHost({ uid: 'u1', operation: 'CREATE', object: host({}) }, deps).response).toEqual({ uid: 'u1', allowed: true });
  });

  it('denies as controller-runtime does (403, the message), each violation a cause with its field', () => {
    const { response } = reviewBareMetalHost({ uid: 'u2', operation: 'CREATE', object: host({ disablePowerOff: true, online: false, firmware: {} }) }, deps);
    expect(response).toEqual({
      uid: 'u2', allowed: false,
      status: {
        code: 403, reason: 'Forbidden',
        message: "[the Firmware field is no longer supported, use HostFirmwareSettings resource instead, node can't simultaneously have online set to false and have power off disabled]",
        details: { causes: [
          { type: 'FieldValueForbidden', field: 'spec.firmware', message: 'the Firmware field is no longer supported, use HostFirmwareSettings resource instead' },
          { type: 'FieldValueForbidden', field: 'spec.disablePowerOff', message: "node can't simultaneously have online set to false and have power off disabled" },
        ] },
      },
    });
  });

  it('applies the update rules against the old object, and lets deletes through', () => {
    const old = host({ bootMACAddress: '00:11:22:33:44:55' }, { provisioning: { ID: '', state: 'provisioned' } });
    const updated = host({ bootMACAddress: '00:11:22:33:44:66' }, { provisioning: { ID: '', state: 'provisioned' } });
    expect(reviewBareMetalHost({ uid: 'u3', operation: 'UPDATE', object: updated, oldObject: old }, deps).response.status?.message)
      .toBe('bootMACAddress can not be changed once it is set');
    expect(reviewBareMetalHost({ uid: 'u4', operation: 'DELETE', oldObject: old }, deps).response.allowed).toBe(true);
  });

  it('denies an object that is no BareMetalHost, saying why', () => {
    expect(reviewBareMetalHost({ uid: 'u5', operation: 'CREATE', object: { metadata: {} } }, deps).response.status?.message).toMatch(/^not a valid BareMetalHost: spec/);
  });

  it('lets an update through whose status this schema cannot read (BMO never checks a status), still checking the spec', () => {
    const odd = { provisioning: { ID: '', state: 'a state from the future' }, conditions: [{ type: 'Ready', status: 'True' }] };
    const old = host({}, odd);
    const finalizerGone = { ...host({}, odd), metadata: { name: 'h', namespace: 'n', finalizers: [] } };
    expect(reviewBareMetalHost({ uid: 'u6', operation: 'UPDATE', object: finalizerGone, oldObject: old }, deps).response).toEqual({ uid: 'u6', allowed: true });
    const badSpec = host({ disablePowerOff: true, online: false }, odd);
    expect(reviewBareMetalHost({ uid: 'u7', operation: 'UPDATE', object: badSpec, oldObject: old }, deps).response.status?.message)
      .toBe("node can't simultaneously have online set to false and have power off disabled");
  });
});
