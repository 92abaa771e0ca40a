import { describe, it, expect } from '@jest/globals';
import { ironicRootDevice } from './ironic-root-device.ts';
import { profileRootDeviceHints } from './hardware-profiles.ts';
import type { RootDeviceHints } from './root-device-hints.ts';

describe('ironicRootDevice', () => {
  it.each<[string, RootDeviceHints | undefined, Record<string, string>]>([
    ['no hints', undefined, {}],
    ['empty hints', {}, {}],
    ['device name', { deviceName: '/dev/sda' }, { name: 's== /dev/sda' }],
    [
      'by-path device name',
      { deviceName: '/dev/disk/by-path/pci-0000:01:00.0-scsi-0:2:0:0' },
      { by_path: 's== /dev/disk/by-path/pci-0000:01:00.0-scsi-0:2:0:0' },
    ],
    ['hctl', { hctl: '1:2:3:4' }, { hctl: 's== 1:2:3:4' }],
    ['model', { model: 'PERC H755' }, { model: '<in> PERC H755' }],
    ['vendor', { vendor: 'DELL' }, { vendor: '<in> DELL' }],
    ['serial', { serialNumber: 'S123' }, { serial: 's== S123' }],
    ['size', { minSizeGigabytes: 120 }, { size: '>= 120' }],
    ['zero size is no hint', { minSizeGigabytes: 0 }, {}],
    ['wwn', { wwn: '0x5000c500a0b1c2d3' }, { wwn: 's== 0x5000c500a0b1c2d3' }],
    ['wwn with extension', { wwnWithExtension: '0x5000c5000x1234' }, { wwn_with_extension: 's== 0x5000c5000x1234' }],
    ['wwn vendor extension', { wwnVendorExtension: '0x1234' }, { wwn_vendor_extension: 's== 0x1234' }],
    ['rotational', { rotational: true }, { rotational: 'true' }],
    ['not rotational', { rotational: false }, { rotational: 'false' }],
    [
      'everything',
      {
        deviceName: '/dev/vda',
        hctl: '0:0:0:0',
        model: 'm',
        vendor: 'v',
        serialNumber: 's',
        minSizeGigabytes: 40,
        wwn: 'w',
        wwnWithExtension: 'we',
        wwnVendorExtension: 've',
        rotational: false,
      },
      {
        name: 's== /dev/vda',
        hctl: 's== 0:0:0:0',
        model: '<in> m',
        vendor: '<in> v',
        serial: 's== s',
        size: '>= 40',
        wwn: 's== w',
        wwn_with_extension: 's== we',
        wwn_vendor_extension: 's== ve',
        rotational: 'false',
      },
    ],
  ])('%s', (_name, hints, expected) => {
    expect(ironicRootDevice(hints)).toEqual(expected);
  });

  it.each([
    ['unknown', { name: 's== /dev/sda' }],
    ['libvirt', { name: 's== /dev/vda' }],
    ['openstack', { name: 's== /dev/vdb' }],
    ['dell', { hctl: 's== 0:0:0:0' }],
    ['dell-raid', { hctl: 's== 0:2:0:0' }],
    ['empty', {}],
  ])('maps the %s profile default', (profile, expected) => {
    const hints = profileRootDeviceHints(profile);
    if (!hints.ok) throw new Error(hints.message);
    expect(ironicRootDevice(hints.hints)).toEqual(expected);
  });
});
