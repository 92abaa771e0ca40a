import { describe, it, expect } from '@jest/globals';
import { hardwareProfileName, profileRootDeviceHints } from './hardware-profiles.ts';
import { hostRootDeviceHints } from './host-root-device-hints.ts';
import { rootDeviceHintsProblem } from './root-device-hints-problem.ts';

describe('hardwareProfileName', () => {
  it.each([
    [{ statusProfile: 'dell', specProfile: 'openstack', bmcAddress: 'libvirt://h' }, 'dell'],
    [{ specProfile: 'openstack', bmcAddress: 'libvirt://h' }, 'openstack'],
    [{ bmcAddress: 'libvirt://192.168.122.1' }, 'libvirt'],
    [{ bmcAddress: 'redfish://h' }, 'unknown'],
    [{}, 'unknown'],
  ])('%j -> %s', (options, expected) => {
    expect(hardwareProfileName(options)).toBe(expected);
  });
});

describe('profileRootDeviceHints', () => {
  it('fails for an unknown profile with BMO wording', () => {
    expect(profileRootDeviceHints('hpe')).toEqual({ ok: false, message: 'no hardware profile named "hpe"' });
  });

  it('returns a copy callers may change', () => {
    const first = profileRootDeviceHints('unknown');
    if (!first.ok) throw new Error(first.message);
    first.hints.deviceName = '/dev/changed';
    expect(profileRootDeviceHints('unknown')).toEqual({ ok: true, hints: { deviceName: '/dev/sda' } });
  });
});

describe('hostRootDeviceHints', () => {
  it('prefers the spec hints', () => {
    expect(hostRootDeviceHints({ specHints: { minSizeGigabytes: 100 }, hardwareProfile: 'unknown' })).toEqual({
      ok: true,
      hints: { minSizeGigabytes: 100 },
    });
  });

  it('falls back to the profile', () => {
    expect(hostRootDeviceHints({ specHints: undefined, hardwareProfile: 'dell-raid' })).toEqual({ ok: true, hints: { hctl: '0:2:0:0' } });
    expect(hostRootDeviceHints({ specHints: undefined, hardwareProfile: 'empty' })).toEqual({ ok: true, hints: {} });
  });

  it('uses no hints when a software RAID volume is the root', () => {
    const raid = { softwareRAIDVolumes: [{ rootVolume: true }, { rootVolume: false }] };
    expect(hostRootDeviceHints({ specHints: { deviceName: '/dev/sda' }, hardwareProfile: 'unknown', raid })).toEqual({
      ok: true,
      hints: undefined,
    });
  });

  it('reports an unknown profile', () => {
    expect(hostRootDeviceHints({ specHints: undefined, hardwareProfile: 'nope' })).toEqual({
      ok: false,
      message: 'failed to update root device hints: no hardware profile named "nope"',
    });
  });
});

describe('rootDeviceHintsProblem', () => {
  it.each([
    [undefined, undefined],
    [{}, undefined],
    [{ deviceName: '/dev/sda' }, undefined],
    [{ deviceName: '/dev/disk/by-path/pci-0000:01:00.0-scsi-0:2:0:0' }, undefined],
    [{ deviceName: 'sda' }, 'device name of root device hint must be a /dev/ path, not "sda"'],
    [{ deviceName: '/dev/disk/by-id/wwn-0x5000' }, 'device name of root device hint must be path in /dev/ or /dev/disk/by-path/, not "/dev/disk/by-id/wwn-0x5000"'],
  ])('%j', (hints, expected) => {
    expect(rootDeviceHintsProblem(hints)).toBe(expected);
  });
});
