import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '../runtime/index.ts';
import { reviewHostFirmwareComponents } from './hostfirmwarecomponents-validator.ts';

const deps = { logger: silentLogger() };
const components = (updates: { component: string; url: string }[]) => ({
  apiVersion: 'metal3.io/v1alpha1', kind: 'HostFirmwareComponents', metadata: { name: 'h', namespace: 'n' }, spec: { updates },
});

describe('reviewHostFirmwareComponents', () => {
  it('allows updates whose URLs BMO accepts, and no updates at all', () => {
    const good = components([{ component: 'bios', url: 'https://firmware.test/bios-1.1.0.bin' }, { component: 'bmc', url: 'http://127.0.0.1/bmc.bin' }]);
    expect(reviewHostFirmwareComponents({ uid: 'u1', operation: 'CREATE', object: good }, deps).response).toEqual({ uid: 'u1', allowed: true });
    expect(reviewHostFirmwareComponents({ uid: 'u2', operation: 'CREATE', object: { ...good, spec: {} } }, deps).response.allowed).toBe(true);
  });

  it("denies each bad URL with BMO's message, on create and on update, each a cause with its field", () => {
    const bad = components([
      { component: 'bios', url: 'file:///tmp/bios.bin' },
      { component: 'bmc', url: 'https://firmware.test/bmc.bin' },
      { component: 'nic:1', url: 'nic.bin' },
    ]);
    for (const operation of ['CREATE', 'UPDATE'] as const) {
      const { response } = reviewHostFirmwareComponents({ uid: 'u3', operation, object: bad, oldObject: components([]) }, deps);
      expect(response.allowed).toBe(false);
      expect(response.status?.message).toBe('[invalid URL "file:///tmp/bios.bin" in FirmwareUpdate in component "bios": invalid scheme in URL, "file" not allowed, '
        + 'invalid URL "nic.bin" in FirmwareUpdate in component "nic:1": parse "nic.bin": invalid URI for request]');
      expect(response.status?.details?.causes.map((cause) => cause.field)).toEqual(['spec.updates[0].url', 'spec.updates[2].url']);
    }
  });

  it('lets deletes through and says why an object is no HostFirmwareComponents', () => {
    expect(reviewHostFirmwareComponents({ uid: 'u4', operation: 'DELETE' }, deps).response.allowed).toBe(true);
    expect(reviewHostFirmwareComponents({ uid: 'u5', operation: 'CREATE', object: { spec: {} } }, deps).response.status?.message)
      .toMatch(/^not a valid HostFirmwareComponents: metadata/);
  });
});
