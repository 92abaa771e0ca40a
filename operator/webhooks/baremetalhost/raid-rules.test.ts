import { describe, expect, it } from '@jest/globals';
import { messagesFor, testHost } from './test-host.ts';

const twoDisks = [{ deviceName: '/dev/sda' }, { deviceName: '/dev/sdb' }];

describe('RAID rules', () => {
  it('accepts one kind of RAID with consistent volumes', () => {
    expect(messagesFor(testHost({ spec: { raid: { hardwareRAIDVolumes: [{ level: '1', controller: 'c', physicalDisks: ['a', 'b'], numberOfPhysicalDisks: 2 }] } } }))).toEqual([]);
    expect(messagesFor(testHost({ spec: { raid: { softwareRAIDVolumes: [{ level: '1', rootVolume: true, physicalDisks: twoDisks }] } } }))).toEqual([]);
  });

  it('refuses both kinds at once', () => {
    expect(messagesFor(testHost({ spec: { raid: { hardwareRAIDVolumes: [{ level: '1' }], softwareRAIDVolumes: [{ level: '1' }] } } })))
      .toEqual(['hardwareRAIDVolumes and softwareRAIDVolumes can not be set at the same time']);
  });

  it('refuses physicalDisks without controller, and a wrong disk count', () => {
    expect(messagesFor(testHost({ spec: { raid: { hardwareRAIDVolumes: [{ level: '0', physicalDisks: ['a'], numberOfPhysicalDisks: 2 }] } } }))).toEqual([
      "'physicalDisks' specified without 'controller' in hardware RAID volume 0",
      "the 'numberOfPhysicalDisks'[2] and number of 'physicalDisks'[1] is not same for volume 0",
    ]);
  });

  it('refuses two root volumes, a root volume with root device hints, and a root volume not RAID-1', () => {
    expect(messagesFor(testHost({ spec: { raid: { softwareRAIDVolumes: [{ level: '1', rootVolume: true }, { level: '1', rootVolume: true }] } } })))
      .toEqual(['softwareRAIDVolumes[*].rootVolume can only be set once']);
    expect(messagesFor(testHost({ spec: { rootDeviceHints: { deviceName: '/dev/sda' }, raid: { softwareRAIDVolumes: [{ level: '1', rootVolume: true }] } } })))
      .toEqual(['softwareRAIDVolumes[*].rootVolume and rootDeviceHints can not be set at the same time']);
    expect(messagesFor(testHost({ spec: { raid: { softwareRAIDVolumes: [{ level: '0', rootVolume: true }] } } })))
      .toEqual(['softwareRAIDVolumes[0] with rootVolume set must use RAID level 1']);
  });
});
